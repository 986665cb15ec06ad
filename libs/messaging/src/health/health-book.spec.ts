import { create, ServiceHeartbeatSchema, timestampFromDate } from '@engram/contracts';
import { HEARTBEAT_INTERVAL_MS } from './heartbeat.publisher';
import { HealthBook, INSTANCE_GONE_AFTER_MS } from './health-book';

const T0 = Date.parse('2026-11-24T10:00:00Z');

function beat(
  service: string,
  instance: string,
  startedMs: number,
  counters: Record<string, number>,
  ready = true,
) {
  return create(ServiceHeartbeatSchema, {
    service,
    instance,
    startedAt: timestampFromDate(new Date(startedMs)),
    ready,
    dependencies: ready ? [] : [{ name: 'postgres', up: false, reason: 'connection refused' }],
    counters,
  });
}

describe('HealthBook', () => {
  it('calls a service up, degraded or down by the replicas heard lately', () => {
    const book = new HealthBook();
    book.record(beat('ingest', 'a:1', T0, {}), T0);
    book.record(beat('ingest', 'b:2', T0, {}, false), T0);
    book.record(beat('embedder', 'c:3', T0, {}), T0);
    const status = (now: number) => Object.fromEntries(book.services(now).map((s) => [s.service, s.status]));
    expect(status(T0)).toMatchObject({ ingest: 'degraded', embedder: 'up', retrieval: 'down', api: 'down' });
    const ingest = book.services(T0).find((s) => s.service === 'ingest')!;
    expect(ingest.instances.map((i) => [i.instance, i.ready])).toEqual([
      ['a:1', true],
      ['b:2', false],
    ]);
    expect(ingest.instances[1]!.dependencies[0]!.reason).toBe('connection refused');
    // Only a:1 goes on beating: b:2 is gone after three missed heartbeats.
    const later = T0 + INSTANCE_GONE_AFTER_MS + 1;
    book.record(beat('ingest', 'a:1', T0, {}), later);
    expect(status(later)).toMatchObject({ ingest: 'up', embedder: 'down' });
  });

  it('adds what the counters grew by to the minute they were heard in, over every replica', () => {
    const book = new HealthBook();
    const started = T0 - 1000;
    book.record(beat('ingest', 'a:1', started, { messages_stored: 100 }), T0);
    book.record(beat('ingest', 'b:2', started, { messages_stored: 10 }), T0 + 1000);
    book.record(beat('ingest', 'a:1', started, { messages_stored: 160 }), T0 + 5000);
    book.record(beat('embedder', 'c:3', started, { vectors_made: 50, vector_lag_seconds: 25 }), T0 + 6000);
    book.record(beat('ingest', 'a:1', started, { messages_stored: 200 }), T0 + 65_000);
    const activity = book.activity(T0 + 65_000);
    expect(activity).toHaveLength(60);
    const [previous, current] = activity.slice(-2);
    // Started just now: everything since the start counts (100 + 10 + 60).
    expect(previous).toMatchObject({ messagesStored: 170, vectorsMade: 50, meanVectorLagMs: 500 });
    expect(current).toMatchObject({ messagesStored: 40, vectorsMade: 0, meanVectorLagMs: 0 });
  });

  it('counts a replica first heard long after it started from then on, and a restart from zero', () => {
    const book = new HealthBook();
    const longAgo = T0 - 3_600_000;
    book.record(beat('ingest', 'a:1', longAgo, { messages_stored: 1_000_000 }), T0);
    book.record(beat('ingest', 'a:1', longAgo, { messages_stored: 1_000_030 }), T0 + HEARTBEAT_INTERVAL_MS);
    // The same instance name after a restart: its counter went down.
    book.record(beat('ingest', 'a:1', T0 + 9000, { messages_stored: 7 }), T0 + 2 * HEARTBEAT_INTERVAL_MS);
    expect(book.activity(T0 + 2 * HEARTBEAT_INTERVAL_MS).at(-1)!.messagesStored).toBe(37);
  });

  it('keeps an hour: older minutes are dropped', () => {
    const book = new HealthBook();
    book.record(beat('ingest', 'a:1', T0, { messages_stored: 5 }), T0);
    const hourLater = T0 + 61 * 60_000;
    book.record(beat('ingest', 'a:1', T0, { messages_stored: 5 }), hourLater);
    expect(book.activity(hourLater).reduce((n, m) => n + m.messagesStored, 0)).toBe(0);
  });
});
