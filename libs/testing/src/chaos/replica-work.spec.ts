import type { ServiceProcess } from '../service-process';
import { handled, workInMetrics, WorkTally } from './replica-work';

describe('workInMetrics', () => {
  const text = [
    '# HELP engram_consumer_messages_total Messages settled per consumer and outcome',
    '# TYPE engram_consumer_messages_total counter',
    'engram_consumer_messages_total{consumer="ingest-turns",outcome="ack",service="ingest"} 120',
    'engram_consumer_messages_total{consumer="ingest-turns",outcome="retry",service="ingest"} 7',
    'engram_consumer_messages_total{consumer="ingest-turns",outcome="dead_letter",service="ingest"} 1',
    'engram_rpc_requests_total{rpc="mem.rpc.search",code="OK",service="retrieval"} 30',
    'engram_rpc_requests_total{rpc="mem.rpc.search",code="INVALID_ARGUMENT",service="retrieval"} 2',
    'engram_rpc_seconds_count{rpc="mem.rpc.search",service="retrieval"} 32',
  ].join('\n');

  it('counts acknowledged messages by consumer and answered requests by RPC, nothing else', () => {
    expect(workInMetrics(text)).toEqual({ 'ingest-turns': 120, 'mem.rpc.search': 30 });
  });

  it('sums the named work, zero for a process that handled none of it', () => {
    expect(handled(workInMetrics(text), ['ingest-turns', 'mem.rpc.search'])).toBe(150);
    expect(handled(workInMetrics(text), ['mem.rpc.context.build'])).toBe(0);
    expect(workInMetrics('process_cpu_seconds_total{service="patrol"} 1.5\n')).toEqual({});
  });
});

describe('WorkTally', () => {
  it("sums every process's latest reading, a killed one's included", () => {
    const tally = new WorkTally();
    const [killed, running] = [{ pid: 100 }, { pid: 100 }] as unknown as ServiceProcess[];
    tally.record(killed!, { 'compactor-facts': 40 });
    tally.record(killed!, { 'compactor-facts': 90, 'compactor-sessions': 3 });
    tally.record(running!, { 'compactor-facts': 5 }); // a later process under a reused pid

    expect(tally.total()).toEqual({ 'compactor-facts': 95, 'compactor-sessions': 3 });
  });
});
