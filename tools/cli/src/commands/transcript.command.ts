import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { Command, Option } from 'commander';
import { checkToken } from './cli-failure';
import { examples, idOption, integer, tenantCommand, tenantOf } from './engram-rpc';
import { table } from './memory-tables';
import { progressBar } from './progress';
import { exportTranscript, type ExportResult } from './transcript-export';
import {
  importTranscript,
  TRANSCRIPT_FORMATS,
  type ImportResult,
  type TranscriptFormat,
} from './transcript-import';

/** `engram import` and `engram export`: transcripts in and out of a tenant as JSON Lines (or LoCoMo in). */

function summaryTable(rows: Array<[string, string | number]>): string {
  const out = table();
  for (const [name, value] of rows) out.push({ [name]: String(value) });
  return out.toString();
}

export function renderImport(result: ImportResult): string {
  const rows: Array<[string, string | number]> = [
    ['format', result.format],
    ['conversations', result.conversations],
    ['turns', result.turns],
    ['messages', result.messages],
    ['published', result.published],
    ['already published (same msg id)', result.duplicates],
  ];
  if (result.stored !== undefined)
    rows.push(['stored by ingest', `${result.stored} of ${result.turns} turns`]);
  return summaryTable(rows);
}

export function renderExport(result: ExportResult, out: string): string {
  return summaryTable([
    ['written to', out],
    ['conversations', result.conversations],
    ['turns', result.turns],
    ['messages', result.messages],
  ]);
}

interface ImportCommandOptions {
  tenant: string;
  agent?: string;
  format?: TranscriptFormat;
  wait?: boolean;
  waitTimeout: number;
  json?: boolean;
}

export function importCommand(): Command {
  const command = tenantCommand(
    'import',
    'publish the turns of a transcript file (JSON Lines of TurnEvents, or a LoCoMo file) to a tenant',
  )
    .argument('<file>', 'the file')
    .option(
      '--agent <agent>',
      "the agent every turn goes to (default: each line's agent; LoCoMo: the sample_id)",
    )
    .addOption(
      new Option('--format <format>', 'jsonl or locomo (default: a JSON array is LoCoMo)').choices(
        TRANSCRIPT_FORMATS,
      ),
    )
    .option('--wait', 'wait until ingest stored every turn')
    .option('--wait-timeout <seconds>', 'how long --wait waits', integer(1, 86_400), 300)
    .action(async (file: string, options: ImportCommandOptions) => {
      const progress = !options.json;
      const result = await importTranscript({
        file,
        tenantId: tenantOf(options),
        agent: options.agent === undefined ? undefined : checkToken(options.agent, '--agent'),
        format: options.format,
        waitMs: options.wait ? options.waitTimeout * 1000 : undefined,
        progress: { publish: progressBar('published', progress), store: progressBar('stored   ', progress) },
      });
      console.log(options.json ? JSON.stringify(result, null, 2) : renderImport(result));
      if (result.stored !== undefined && result.stored < result.turns) {
        console.error(
          `engram: ingest stored ${result.stored} of ${result.turns} turns within ${options.waitTimeout} s`,
        );
        process.exitCode = 1;
      }
    });
  return examples(command, [
    'import --tenant acme chats.jsonl --wait',
    'import --tenant acme --agent support-bot chats.jsonl',
    'import --tenant bench locomo10.json --wait --json',
  ]);
}

/** Where export writes: a file (awaiting its drain), or stdout. */
function sink(out: string | undefined): {
  write: (line: string) => Promise<void>;
  close: () => Promise<void>;
} {
  const stream: WriteStream | NodeJS.WriteStream = out
    ? createWriteStream(out, { encoding: 'utf8' })
    : process.stdout;
  return {
    async write(line) {
      if (!stream.write(`${line}\n`)) await once(stream, 'drain');
    },
    async close() {
      if (stream === process.stdout) return;
      stream.end();
      await once(stream, 'finish');
    },
  };
}

interface ExportCommandOptions {
  tenant: string;
  agent?: string;
  conversation?: string;
  out?: string;
  json?: boolean;
}

export function exportCommand(): Command {
  const command = tenantCommand(
    'export',
    "write a tenant's transcripts as JSON Lines, one turn a line, grouped by conversation (engram import reads them)",
  )
    .option('--agent <agent>', "only this agent's conversations")
    .addOption(idOption('--conversation <id>', 'only this conversation'))
    .option('--out <file>', 'write to this file (default: stdout; the summary then goes to stderr)')
    .action(async (options: ExportCommandOptions) => {
      const tenantId = tenantOf(options);
      const output = sink(options.out);
      let result: ExportResult;
      try {
        result = await exportTranscript(
          {
            tenantId,
            agent: options.agent === undefined ? undefined : checkToken(options.agent, '--agent'),
            conversationId: options.conversation,
            progress: progressBar('exported', !options.json),
          },
          (line) => output.write(line),
        );
      } finally {
        await output.close();
      }
      if (options.out)
        console.log(options.json ? JSON.stringify(result, null, 2) : renderExport(result, options.out));
      else if (!options.json)
        console.error(
          `exported ${result.conversations} conversation(s), ${result.turns} turn(s), ${result.messages} message(s)`,
        );
    });
  return examples(command, [
    'export --tenant acme --out acme.jsonl',
    'export --tenant acme --agent support-bot --conversation 12 > chat-12.jsonl',
    'export --tenant acme --out acme.jsonl && engram import --tenant acme-copy acme.jsonl --wait',
  ]);
}
