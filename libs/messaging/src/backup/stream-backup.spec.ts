import { ALL_STREAMS, Consumers, Streams } from '@engram/contracts';
import {
  firstSequenceToKeep,
  isUnconsumed,
  STREAM_BACKUP_SCOPE,
  type ConsumerPosition,
} from './stream-backup';

describe('stream backup', () => {
  it('has a rule for every stream, and keeps every consumer’s stream', () => {
    expect(Object.keys(STREAM_BACKUP_SCOPE).sort()).toEqual(ALL_STREAMS.map((s) => s.name).sort());
    for (const consumer of Object.values(Consumers))
      expect(['unconsumed', 'derived']).toContain(STREAM_BACKUP_SCOPE[consumer.stream.name]);
  });

  const positions: ConsumerPosition[] = [
    {
      stream: 'MEMORY_EVENTS',
      durable: 'embedder-messages',
      filterSubject: 'mem.message.stored.>',
      ackFloor: 40,
    },
    {
      stream: 'MEMORY_EVENTS',
      durable: 'compactor-facts',
      filterSubject: 'mem.message.stored.>',
      ackFloor: 35,
    },
    {
      stream: 'MEMORY_EVENTS',
      durable: 'embedder-facts',
      filterSubject: 'mem.fact.upserted.>',
      ackFloor: 50,
    },
    { stream: 'TURNS', durable: 'ingest-turns', filterSubject: 'mem.turn.>', ackFloor: 7 },
  ];

  it('keeps a message some consumer of its subject had not acknowledged, and nothing else', () => {
    // compactor-facts is behind on stored messages: from 36 on they are kept, for it.
    expect(isUnconsumed(positions, 'MEMORY_EVENTS', 'mem.message.stored.acme', 35)).toBe(false);
    expect(isUnconsumed(positions, 'MEMORY_EVENTS', 'mem.message.stored.acme', 36)).toBe(true);
    // Facts upserted were taken through 50.
    expect(isUnconsumed(positions, 'MEMORY_EVENTS', 'mem.fact.upserted.acme', 45)).toBe(false);
    expect(isUnconsumed(positions, 'MEMORY_EVENTS', 'mem.fact.upserted.acme', 51)).toBe(true);
    // No consumer reads vectors written: they announce what Postgres holds.
    expect(isUnconsumed(positions, 'MEMORY_EVENTS', 'mem.embedding.written.acme', 99)).toBe(false);
    // Another stream's position does not count.
    expect(isUnconsumed(positions, 'TURNS', 'mem.message.stored.acme', 99)).toBe(false);
    expect(isUnconsumed(positions, 'TURNS', 'mem.turn.acme.helper', 8)).toBe(true);
  });

  it('reads a stream from after the lowest ack floor of its consumers', () => {
    expect(firstSequenceToKeep(positions, 'MEMORY_EVENTS')).toBe(36);
    expect(firstSequenceToKeep(positions, 'TURNS')).toBe(8);
    expect(firstSequenceToKeep(positions, Streams.deadLetters.name)).toBe(1);
  });
});
