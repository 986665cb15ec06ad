import { Consumers } from '@engram/contracts';
import { consumersOf, subjectNodes } from './topology-graph';

describe('the subjects of the topology', () => {
  it('each have a stream, and the stored message is read by the embedder and the three compactor consumers', () => {
    const stored = subjectNodes().find((n) => n.subject === 'mem.message.stored.{tenant}')!;
    expect(stored.stream.name).toBe('MEMORY_EVENTS');
    expect(consumersOf(stored.subject).map((c) => c.durable)).toEqual(
      expect.arrayContaining([
        'embedder-messages',
        'compactor-summaries',
        'compactor-facts',
        'compactor-sessions',
      ]),
    );
  });

  it('name who publishes a fact: the consumers and RPCs that declare it', () => {
    const facts = subjectNodes().find((n) => n.subject === 'mem.fact.upserted.{tenant}')!;
    const handlers = facts.publishedBy.map((p) =>
      p.kind === 'consumer' ? p.spec.durable : p.kind === 'rpc' ? p.spec.subject : p.who,
    );
    expect(handlers.sort()).toEqual(
      [
        Consumers.ingestTurns.durable,
        'compactor-facts',
        'compactor-sessions',
        'mem.rpc.save',
        'mem.rpc.forget',
        'mem.rpc.facts.update',
      ].sort(),
    );
  });
});
