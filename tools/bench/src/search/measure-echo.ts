import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import { encodeMessage, Rpcs, type RpcSpec } from '@engram/contracts';
import { callRpcBytes } from '@engram/messaging';
import type { ProcessGroup } from '../measure/process-cpu';
import { runClosedLoop } from './closed-loop';
import { closedLoopOnMachine, latencyRun, searchRequest, SHELL_TENANT } from './measure-search';
import type { BenchQuery } from './query-generator';
import type { LatencyRun } from './search-report';

/** memory_search's request and subject shape under other subjects, so retrieval never hears them. */
const ECHO_RPC: RpcSpec = { ...Rpcs.search, subject: 'mem.rpc.echo' };
const ECHO_READ_RPC: RpcSpec = { ...Rpcs.search, subject: 'mem.rpc.echo-read' };

/** Starts echo-service.js in its own process and resolves once its subscription is registered. */
async function startEcho(natsUrl: string, rpc: RpcSpec, databaseUrl?: string): Promise<ChildProcess> {
  const args = [natsUrl, `${rpc.subject}.*`, ...(databaseUrl ? [databaseUrl] : [])];
  const child = fork(join(__dirname, 'echo-service.js'), args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the echo service was not ready within 30 s')), 30_000);
    child.once('message', () => {
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the echo service exited (${code}) before it was ready`));
    });
  });
  return child;
}

async function stopEcho(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * THE ECHO: the floor of an RPC, measured in the same run as the shell and the search — the
 * same clients on the same connection, the same request bytes and headers (callRpcBytes), the
 * same nats-server, `clients` at a time; answered by a process that replies empty at once
 * (echo-service.ts). Its CPU is split by process as the others' is, with the echo's own as "echo".
 * Given the app role's database URL (the echo plus one read), the process first asks Postgres
 * whether the tenant exists: the floor of an RPC that must ask the store once, as the shell does.
 */
export async function measureEcho(
  natsUrl: string,
  nc: NatsConnection,
  warmup: readonly BenchQuery[],
  measured: readonly BenchQuery[],
  clients: number,
  groups: readonly ProcessGroup[] = [],
  databaseUrl?: string,
): Promise<LatencyRun> {
  const rpc = databaseUrl ? ECHO_READ_RPC : ECHO_RPC;
  const echo = await startEcho(natsUrl, rpc, databaseUrl);
  try {
    const call = async (q: BenchQuery) => {
      const reply = await callRpcBytes(nc, rpc, encodeMessage(Rpcs.search.request, searchRequest(q)), {
        // The read asks about the shell's tenant, which does not exist, as the shell's statement does.
        tenantId: databaseUrl ? SHELL_TENANT : q.tenantId,
        timeoutMs: 10_000,
      });
      if (reply.length !== 0) throw new Error(`the echo answered ${reply.length} bytes, not an empty reply`);
    };
    await runClosedLoop(warmup, clients, call);
    const { run, busySeconds, cpuSecondsBy } = await closedLoopOnMachine(measured, clients, call, [
      { name: 'echo', pids: () => (echo.pid === undefined ? [] : [echo.pid]) },
      ...groups,
    ]);
    return latencyRun(run, () => ({}), busySeconds, cpuSecondsBy);
  } finally {
    await stopEcho(echo);
  }
}
