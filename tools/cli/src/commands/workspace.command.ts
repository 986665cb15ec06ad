import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import type { NatsConnection } from '@nats-io/transport-node';
import { loadConfig } from '@engram/config';
import { Rpcs } from '@engram/contracts';
import { callRpc } from '@engram/messaging';
import { connectCli } from './engram-rpc';

/** What the server accepts per file (1 MB); a larger file is skipped here, never sent. */
const MAX_FILE_BYTES = 1_000_000;
/** Files are sent in requests of at most about this many bytes (NATS carries at most 1 MiB). */
const MAX_REQUEST_BYTES = 900_000;

export interface SkippedFile {
  readonly name: string;
  readonly reason: string;
}

export interface WorkspaceImportResult {
  /** Workspace documents stored, by the name they are stored under. */
  readonly stored: string[];
  /** Files that are not workspace documents (or skills), with the reason. */
  readonly skipped: SkippedFile[];
  /** Skills stored, by skill name. */
  readonly skills: string[];
  /** Skill files refused, as skills/<file>, with the problem. */
  readonly rejected: SkippedFile[];
}

export interface WorkspaceImportOptions {
  readonly dir: string;
  readonly tenantId: string;
  readonly agent: string;
  readonly natsUrl: string;
  readonly timeoutMs?: number;
}

interface LocalFile {
  readonly name: string;
  readonly content: string;
}

/** The regular files directly in `dir` (none when it does not exist), sorted; larger ones are skipped. */
async function filesIn(
  dir: string,
  prefix: string,
  skipped: SkippedFile[],
  required = false,
): Promise<LocalFile[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (!required && (error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: LocalFile[] = [];
  for (const entry of entries.filter((e) => e.isFile()).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    const { size } = await stat(path);
    if (size > MAX_FILE_BYTES) {
      skipped.push({ name: `${prefix}${entry.name}`, reason: `${size} bytes: larger than 1 MB` });
      continue;
    }
    files.push({ name: `${prefix}${entry.name}`, content: await readFile(path, 'utf8') });
  }
  return files;
}

/** Groups files into requests of at most MAX_REQUEST_BYTES (a larger file goes alone). */
function inRequests(files: readonly LocalFile[]): LocalFile[][] {
  const groups: LocalFile[][] = [];
  let current: LocalFile[] = [];
  let bytes = 0;
  for (const file of files) {
    const size = Buffer.byteLength(file.content) + Buffer.byteLength(file.name) + 64;
    if (current.length > 0 && bytes + size > MAX_REQUEST_BYTES) {
      groups.push(current);
      current = [];
      bytes = 0;
    }
    current.push(file);
    bytes += size;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/**
 * Imports an agent's workspace folder into Engram over NATS: the top-level files (SOUL.md,
 * IDENTITY.md, USER.md, AGENTS.md, TOOLS.md, MEMORY.md; anything else comes back skipped),
 * daily notes in memory/, and skills/*.md. Documents and skills are upserted by name, so
 * importing again changes only what changed. A failed request throws its RpcError.
 */
export async function importWorkspace(options: WorkspaceImportOptions): Promise<WorkspaceImportResult> {
  const skipped: SkippedFile[] = [];
  const rejected: SkippedFile[] = [];
  const documents = [
    ...(await filesIn(options.dir, '', skipped, true)),
    ...(await filesIn(join(options.dir, 'memory'), 'memory/', skipped)),
  ];
  const skillFiles = (await filesIn(join(options.dir, 'skills'), 'skills/', skipped)).filter((file) => {
    if (file.name.toLowerCase().endsWith('.md')) return true;
    skipped.push({ name: file.name, reason: 'not a skill: skills are .md files' });
    return false;
  });

  const nc: NatsConnection = await connectCli(options.natsUrl);
  const call = { tenantId: options.tenantId, timeoutMs: options.timeoutMs ?? 30_000 };
  try {
    const stored: string[] = [];
    for (const group of inRequests(documents)) {
      const reply = await callRpc(nc, Rpcs.workspacePut, { agent: options.agent, documents: group }, call);
      stored.push(...reply.stored);
      skipped.push(...reply.skipped.map(({ name, reason }) => ({ name, reason })));
    }
    const skills: string[] = [];
    for (const group of inRequests(skillFiles)) {
      const reply = await callRpc(
        nc,
        Rpcs.skillsPut,
        {
          agent: options.agent,
          files: group.map((f) => ({ name: f.name.slice('skills/'.length), markdown: f.content })),
        },
        call,
      );
      skills.push(...reply.stored);
      rejected.push(...reply.rejected.map(({ name, reason }) => ({ name: `skills/${name}`, reason })));
    }
    return { stored, skipped, skills, rejected };
  } finally {
    await nc.close();
  }
}

export function workspaceCommand(): Command {
  const workspace = new Command('workspace').description("an agent's workspace documents and skills");
  workspace
    .command('import <dir>')
    .description(
      'store the workspace files of <dir> (SOUL.md … MEMORY.md, memory/YYYY-MM-DD.md, skills/*.md) for an agent',
    )
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--agent <agent>', 'agent name')
    .option('--json', 'print the result as one JSON object')
    .action(async (dir: string, options: { tenant: string; agent: string; json?: boolean }) => {
      const result = await importWorkspace({
        dir,
        tenantId: options.tenant,
        agent: options.agent,
        natsUrl: loadConfig(['NATS_URL']).NATS_URL,
      });
      if (options.json) {
        console.log(JSON.stringify(result));
        return;
      }
      result.stored.forEach((name) => console.log(`stored    ${name}`));
      result.skills.forEach((name) => console.log(`skill     ${name}`));
      result.skipped.forEach(({ name, reason }) => console.log(`skipped   ${name}: ${reason}`));
      result.rejected.forEach(({ name, reason }) => console.log(`rejected  ${name}: ${reason}`));
      console.log(
        `${result.stored.length} document(s) and ${result.skills.length} skill(s) stored, ${result.skipped.length} file(s) skipped, ${result.rejected.length} skill file(s) rejected`,
      );
      if (result.rejected.length > 0) process.exitCode = 2;
    });
  return workspace;
}
