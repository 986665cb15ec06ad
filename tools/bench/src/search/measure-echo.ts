import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import { encodeMessage, Rpcs, type RpcSpec } from '@engram/contracts';
import { callRpcBytes } from '@engram/messaging';
import type { ProcessGroup } from '../measure/process-cpu';
import { runClosedLoop } from './closed-loop';
import { closedLoopOnMachine, latencyRun, searchRequest } from './measure-search';
import type { BenchQuery } from './query-generator';
import type { LatencyRun } from './search-report';

/** memory_search's request and subject shape under another subject, so retrieval never hears it. */
const ECHO_RPC: RpcSpec = { ...Rpcs.search, subject: 'mem.rpc.echo' };

/** Starts echo-service.js in its own process and resolves once its subscription is registered. */
async function startEcho(natsUrl: string): Promise<ChildProcess> {
  const child = fork(join(__dirname, 'echo-service.js'), [natsUrl, `${ECHO_RPC.subject}.*`], {
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
 */
export async function measureEcho(
  natsUrl: string,
  nc: NatsConnection,
  warmup: readonly BenchQuery[],
  measured: readonly BenchQuery[],
  clients: number,
  groups: readonly ProcessGroup[] = [],
): Promise<LatencyRun> {
  const echo = await startEcho(natsUrl);
  try {
    const call = async (q: BenchQuery) => {
      const reply = await callRpcBytes(nc, ECHO_RPC, encodeMessage(Rpcs.search.request, searchRequest(q)), {
        tenantId: q.tenantId,
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
