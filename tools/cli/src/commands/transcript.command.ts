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
  readTranscriptFile,
  TRANSCRIPT_FORMATS,
  type ImportResult,
  type TranscriptFormat,
} from './transcript-import';
import {
  FOREIGN_FORMATS,
  importForeign,
  type ForeignFormat,
  type ForeignImportResult,
} from './foreign-import';
import { exportMem0 } from './mem0-export';
import { MEM0_CATEGORIES_KEY } from '@engram/memory-core';
import { UsageError } from './cli-failure';

/**
 * `engram import` and `engram export`: transcripts in and out of a tenant as JSON Lines (or
 * LoCoMo in), and the memory of mem0, Letta and Zep in (mem0's out).
 */

const IMPORT_FORMATS = [...TRANSCRIPT_FORMATS, ...(Object.keys(FOREIGN_FORMATS) as ForeignFormat[])];
type ImportFormat = TranscriptFormat | ForeignFormat;
const isForeign = (format: ImportFormat | undefined): format is ForeignFormat =>
  format !== undefined && format in FOREIGN_FORMATS;

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

/** The summary of an import from mem0, Letta or Zep: what the file held, and what it added. */
export function renderForeignImport(result: ForeignImportResult): string {
  const rows: Array<[string, string | number]> = [
    ['format', result.dryRun ? `${result.format} (dry run: nothing written)` : result.format],
    ['agents', result.agents],
    ['conversations', result.conversations],
    ['turns (messages)', `${result.turns} (${result.messages})`],
  ];
  if (!result.dryRun)
    rows.push(
      ['turns already in the transcript', result.turnsAlreadyStored ?? 0],
      ['turns stored by ingest', `${result.turnsStored ?? 0} of ${result.turns}`],
    );
  rows.push(['facts (closed)', `${result.facts} (${result.closedFacts})`]);
  if (!result.dryRun)
    rows.push(
      ['facts saved', result.factsSaved ?? 0],
      ['facts already there', result.factsAlreadyThere ?? 0],
    );
  rows.push([
    result.dryRun ? 'agent profiles' : 'agent profiles put',
    result.dryRun ? result.profiles : (result.profilesPut ?? 0),
  ]);
  rows.push(['records not imported', result.refused.length]);
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
  format?: ImportFormat;
  wait?: boolean;
  waitTimeout: number;
  dryRun?: boolean;
  json?: boolean;
}

/** The shapes the foreign formats accept, for --help. */
const FOREIGN_HELP = `
Memory of other systems (--format; each record is refused by name, with why, while the rest is
imported, and the command then exits 2; importing the same file again adds nothing):
  mem0   get_all's {"results": [...]} (open source), the platform's list (bare, or paginated
         {count, next, previous, results}) or a memory export ({"data": {"memories": [...]}}):
         each memory a fact of its user_id (else agent_id, mapped to an agent as the mem0 API
         does) under key mem0:<id>, category when one of Engram's (others in metadata
         "${MEM0_CATEGORIES_KEY}"), metadata, created_at; a run_id is the conversation (session key)
         its words are published to, as the mem0 API's add does.
  letta  an AgentFile (.af): each agent (its name an agent) gets its profile from the blocks
         (persona, human), description, tools and model; every block a sticky fact
         (key letta:<agent id>:<label>); its messages a conversation letta-<agent id>, a turn
         per message (turn id letta-<message id>); archival passages (if the file has them) facts.
  zep    {"user_id", "episodes": [Episode], "thread_id", "messages": [Message],
          "edges": [EntityEdge], "facts": [EntityEdge]} as Zep's API answers them (or one of
         the lists alone; Graphiti's EpisodicNode/EntityEdge dumps too, their group_id the
         user): episodes and messages the transcript (a turn each, turn id zep-<uuid>, a
         conversation per thread), edges facts valid from valid_at (else created_at), closed at
         invalid_at (else expired_at), key zep:<uuid>, linked to their episodes.
`;

export function importCommand(): Command {
  const command = tenantCommand(
    'import',
    'import a transcript file (JSON Lines of TurnEvents, or LoCoMo), or the memory of mem0, Letta or Zep, to a tenant',
  )
    .argument('<file>', 'the file')
    .option(
      '--agent <agent>',
      "the agent everything goes to (default: each line's agent; LoCoMo: the sample_id; mem0: the user, else agent; Letta: the agent's name; Zep: the user)",
    )
    .addOption(
      new Option(
        '--format <format>',
        'jsonl, locomo, mem0, letta or zep (default: a JSON array is LoCoMo, anything else JSON Lines)',
      ).choices(IMPORT_FORMATS),
    )
    .option('--wait', 'wait until ingest stored every turn (mem0, letta and zep always wait)')
    .option('--wait-timeout <seconds>', 'how long to wait for ingest', integer(1, 86_400), 300)
    .option('--dry-run', 'read and check the file, count what it would import; write nothing')
    .addHelpText('after', FOREIGN_HELP)
    .action(async (file: string, options: ImportCommandOptions) => {
      if (isForeign(options.format)) return foreignImport(file, options.format, options);
      if (options.dryRun) return transcriptDryRun(file, options);
      const progress = !options.json;
      const result = await importTranscript({
        file,
        tenantId: tenantOf(options),
        agent: options.agent === undefined ? undefined : checkToken(options.agent, '--agent'),
        format: options.format as TranscriptFormat | undefined,
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
    'import --tenant acme --format mem0 mem0-memories.json --dry-run',
    'import --tenant acme --format letta support-agent.af',
    'import --tenant acme --format zep --agent ada ada-zep.json --json',
  ]);
}

/** `import --format mem0|letta|zep`: the summary, and a line on stderr per record not imported (exit 2). */
async function foreignImport(file: string, format: ForeignFormat, options: ImportCommandOptions) {
  const progress = !options.json;
  const result = await importForeign({
    file,
    format,
    tenantId: tenantOf(options),
    agent: options.agent === undefined ? undefined : checkToken(options.agent, '--agent'),
    dryRun: options.dryRun,
    waitMs: options.waitTimeout * 1000,
    progress: {
      publish: progressBar('published', progress),
      store: progressBar('stored   ', progress),
      save: progressBar('saved    ', progress),
    },
  });
  console.log(options.json ? JSON.stringify(result, null, 2) : renderForeignImport(result));
  for (const { record, reason } of result.refused) console.error(`engram: ${file}: ${record}: ${reason}`);
  if (result.refused.length > 0) process.exitCode = 2;
}

/** `import --dry-run` of a transcript: the file read and checked whole, its counts; nothing published. */
async function transcriptDryRun(file: string, options: ImportCommandOptions) {
  const { format, turns } = await readTranscriptFile({
    file,
    tenantId: tenantOf(options),
    agent: options.agent === undefined ? undefined : checkToken(options.agent, '--agent'),
    format: options.format as TranscriptFormat | undefined,
  });
  const result = {
    format,
    dryRun: true,
    turns: turns.length,
    messages: turns.reduce((n, { turn }) => n + turn.messages.length, 0),
    conversations: new Set(turns.map(({ agent, turn }) => `${agent}\u0000${turn.sessionKey}`)).size,
  };
  console.log(
    options.json
      ? JSON.stringify(result, null, 2)
      : summaryTable([
          ['format', `${format} (dry run: nothing published)`],
          ['conversations', result.conversations],
          ['turns', result.turns],
          ['messages', result.messages],
        ]),
  );
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
  format: 'jsonl' | 'mem0';
  out?: string;
  json?: boolean;
}

/** `export --format mem0`: the facts in force as mem0's {"results": [...]}, one JSON document. */
async function mem0Export(options: ExportCommandOptions) {
  if (options.conversation !== undefined)
    throw new UsageError('--conversation is for transcripts: a mem0 export holds facts, by --agent');
  const exported = await exportMem0({
    tenantId: tenantOf(options),
    agent: options.agent === undefined ? undefined : checkToken(options.agent, '--agent'),
    progress: progressBar('exported', !options.json),
  });
  const output = sink(options.out);
  try {
    await output.write(JSON.stringify(exported, null, 2));
  } finally {
    await output.close();
  }
  const result = {
    memories: exported.results.length,
    agents: new Set(exported.results.map((m) => m.user_id)).size,
  };
  if (options.out)
    console.log(
      options.json
        ? JSON.stringify(result, null, 2)
        : summaryTable([
            ['written to', options.out],
            ['format', 'mem0'],
            ['agents', result.agents],
            ['memories', result.memories],
          ]),
    );
  else if (!options.json) console.error(`exported ${result.memories} memories of ${result.agents} agent(s)`);
}

export function exportCommand(): Command {
  const command = tenantCommand(
    'export',
    "write a tenant's transcripts as JSON Lines, one turn a line, grouped by conversation, or its facts as mem0 memories (engram import reads both)",
  )
    .option('--agent <agent>', "only this agent's conversations (mem0: its facts)")
    .addOption(
      new Option(
        '--format <format>',
        'jsonl (the transcripts) or mem0 (the facts in force as mem0\'s {"results": [...]})',
      )
        .choices(['jsonl', 'mem0'])
        .default('jsonl'),
    )
    .addOption(idOption('--conversation <id>', 'only this conversation'))
    .option('--out <file>', 'write to this file (default: stdout; the summary then goes to stderr)')
    .action(async (options: ExportCommandOptions) => {
      if (options.format === 'mem0') return mem0Export(options);
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
    'export --tenant acme --format mem0 --out memories.json && engram import --tenant acme-copy --format mem0 memories.json',
  ]);
}
