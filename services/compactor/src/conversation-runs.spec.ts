import { ROOT_CONTEXT } from '@opentelemetry/api';
import { Subjects, type MessageStored } from '@engram/contracts';
import { Delivery } from '@engram/messaging';
import { ROUNDS_PER_BATCH, runPerConversation, type ConversationTrigger } from './conversation-runs';

/** A delivery of one stored message that records, in order, when it was settled and how. */
function delivery(conversationId: string, seq: number, settled: string[]): Delivery<MessageStored> {
  const message = { conversationId, memoryEnabled: true } as MessageStored;
  const d: Delivery<MessageStored> = new Delivery(
    message,
    Subjects.messageStored('acme'),
    seq,
    1,
    new Date(),
    undefined,
    ROOT_CONTEXT,
    async (verdict) => {
      settled.push(`${seq}:${verdict?.kind ?? 'ack'}`);
    },
  );
  return d;
}

const all = () => true;

describe('runPerConversation', () => {
  it('runs each conversation once per round and acknowledges all but the newest after its first run', async () => {
    const settled: string[] = [];
    const runs: string[] = [];
    const backlog = new Map([
      ['a', 3],
      ['b', 1],
    ]);
    const run = async (t: ConversationTrigger) => {
      runs.push(t.conversationId);
      // Settled as soon as its first run ended: b's first run sees a's older deliveries settled.
      if (t.conversationId === 'b' && runs.length === 2) expect(settled).toEqual(['1:ack', '2:ack']);
      const left = backlog.get(t.conversationId)! - 1;
      backlog.set(t.conversationId, left);
      return left > 0;
    };
    await runPerConversation(
      [
        delivery('a', 1, settled),
        delivery('a', 2, settled),
        delivery('b', 3, settled),
        delivery('a', 4, settled),
      ],
      all,
      run,
    );
    // Round robin: a and b, then a alone twice, its newest delivery held until its backlog is done.
    expect(runs).toEqual(['a', 'b', 'a', 'a']);
    expect(settled).toEqual(['1:ack', '2:ack', '3:ack', '4:ack']);
  });

  it('stops after its rounds and acknowledges: a backlog longer than a batch is left to the next batches', async () => {
    const settled: string[] = [];
    let runs = 0;
    await runPerConversation([delivery('a', 1, settled)], all, async () => {
      runs++;
      return true;
    });
    expect(runs).toBe(ROUNDS_PER_BATCH);
    expect(settled).toEqual(['1:ack']);
  });

  it('retries the held delivery alone when a later run fails; other conversations are untouched', async () => {
    const settled: string[] = [];
    let aRuns = 0;
    await runPerConversation(
      [delivery('a', 1, settled), delivery('a', 2, settled), delivery('b', 3, settled)],
      all,
      async (t) => {
        if (t.conversationId === 'b') return false;
        aRuns++;
        if (aRuns === 2) throw new Error('gerty unreachable');
        return true;
      },
    );
    expect(settled.sort()).toEqual(['1:ack', '2:retry', '3:ack']);
  });

  it('leaves the deliveries keep refuses to the transport, unrun', async () => {
    const settled: string[] = [];
    const runs: string[] = [];
    const refused = delivery('a', 1, settled);
    await runPerConversation(
      [refused, delivery('b', 2, settled)],
      (d) => d !== refused,
      async (t) => {
        runs.push(t.conversationId);
        return false;
      },
    );
    expect(runs).toEqual(['b']);
    expect(settled).toEqual(['2:ack']);
    expect(refused.isFinished).toBe(false);
  });
});
