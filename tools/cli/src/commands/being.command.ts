import { open } from 'node:fs/promises';
import { toJson } from '@bufbuild/protobuf';
import { Command } from 'commander';
import { loadConfig } from '@engram/config';
import { BeingSchema, Rpcs, type Being } from '@engram/contracts';
import { callRpc } from '@engram/messaging';
import { renderBeing } from './being-tree';
import { importSceneLines, SceneImportStopped, type SceneImportResult } from './scene-import';
import { connectCli } from './engram-rpc';

/** A being's soul, rules, relationships, preferences, clusters and counts (mem.rpc.being.get). */
export async function getBeing(natsUrl: string, tenantId: string, agent: string): Promise<Being> {
  const nc = await connectCli(natsUrl);
  try {
    return await callRpc(nc, Rpcs.beingGet, { agent }, { tenantId });
  } finally {
    await nc.close();
  }
}

export interface SceneImportOptions {
  readonly file: string;
  readonly tenantId: string;
  readonly agent: string;
  readonly natsUrl: string;
  readonly timeoutMs?: number;
}

/**
 * Sends each line of a JSONL file of scene notes to mem.rpc.being.scenes.add, one request per
 * line, in order (see `sceneLine` for what a line may be). Stops, throwing SceneImportStopped,
 * when the service is unreachable or fails; a line it refuses is counted and the rest go on.
 */
export async function importSceneFile(options: SceneImportOptions): Promise<SceneImportResult> {
  // Opened first: a missing file fails before anything is sent.
  const file = await open(options.file);
  try {
    const nc = await connectCli(options.natsUrl);
    const lines = file.readLines({ encoding: 'utf8' });
    try {
      return await importSceneLines(options.agent, lines, (request) =>
        callRpc(nc, Rpcs.beingScenesAdd, request, {
          tenantId: options.tenantId,
          timeoutMs: options.timeoutMs ?? 30_000,
        }),
      );
    } finally {
      lines.close();
      await nc.close();
    }
  } finally {
    await file.close();
  }
}

function printImport(result: SceneImportResult): void {
  for (const { line, problems } of result.parseFailed)
    console.log(`line ${line}: parse failed, kept and marked [PARSE_FAILED]: ${problems.join('; ')}`);
  for (const { line, problems } of result.refused)
    console.log(`line ${line}: refused: ${problems.join('; ')}`);
  console.log(
    `${result.stored} scene note(s) stored, ${result.parseFailed.length} parse-failed (kept and marked), ${result.refused.length} refused`,
  );
}

export function beingCommand(): Command {
  const being = new Command('being').description("a being's scene memory (served by patrol)");
  being
    .command('show')
    .description(
      "print a being's clusters as a tree with node counts by status, and its soul, rules and notes",
    )
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--agent <agent>', 'agent name')
    .option('--json', 'print the Being message as JSON')
    .action(async (options: { tenant: string; agent: string; json?: boolean }) => {
      const result = await getBeing(loadConfig(['NATS_URL']).NATS_URL, options.tenant, options.agent);
      console.log(
        options.json
          ? JSON.stringify(toJson(BeingSchema, result, { alwaysEmitImplicit: true }), null, 2)
          : renderBeing(result),
      );
    });
  being
    .command('import <file>')
    .description(
      'send the scene notes of a JSONL file, one per line: a scene object, or {"scene": {...} | "<json>", "importance", "themes", "emotion"}',
    )
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--agent <agent>', 'agent name')
    .option('--json', 'print the result as one JSON object, last')
    .action(async (file: string, options: { tenant: string; agent: string; json?: boolean }) => {
      let result: SceneImportResult;
      try {
        result = await importSceneFile({
          file,
          tenantId: options.tenant,
          agent: options.agent,
          natsUrl: loadConfig(['NATS_URL']).NATS_URL,
        });
      } catch (error) {
        if (error instanceof SceneImportStopped) printImport(error.sofar);
        throw error;
      }
      printImport(result);
      if (options.json) console.log(JSON.stringify(result));
      if (result.refused.length > 0) process.exitCode = 2;
    });
  return being;
}
