import { describeMissingTurns, IngestWait, missingTurns, storedTurnKey } from './ingest-wait';

describe('IngestWait', () => {
  const limits = { expectedRows: 100, timeoutMs: 900_000, stallMs: 60_000 };
  const poll = (rows: number, missing = 0, deadRows = 0) => ({ rows, missing, deadRows });

  it('is complete once every row is stored with its vector', () => {
    const wait = new IngestWait(limits, 0);
    expect(wait.observe(poll(50, 10), 1000)).toEqual({ kind: 'waiting' });
    expect(wait.observe(poll(100, 1), 2000)).toEqual({ kind: 'waiting' });
    expect(wait.observe(poll(100, 0), 3000)).toEqual({ kind: 'complete' });
  });

  it('stops at once when only rows of dead-lettered turns are missing', () => {
    const wait = new IngestWait(limits, 0);
    expect(wait.observe(poll(91, 3, 9), 1000)).toEqual({ kind: 'waiting' });
    expect(wait.observe(poll(91, 0, 9), 2000)).toEqual({
      kind: 'stopped',
      reason: 'every row not stored belongs to a dead-lettered turn',
    });
  });

  it('stops after stallMs without coming closer, however the counts move', () => {
    const wait = new IngestWait(limits, 0);
    expect(wait.observe(poll(91, 0), 1000).kind).toBe('waiting');
    // Rows without a vector going back and forth are no progress.
    for (let at = 2000; at <= 61_000; at += 1000)
      expect(wait.observe(poll(91, at % 2000 === 0 ? 1 : 0), at).kind).toBe('waiting');
    expect(wait.observe(poll(91, 1), 61_001)).toEqual({ kind: 'stopped', reason: 'no progress for 60 s' });
  });

  it('counts more rows, more vectors or more dead letters than ever as progress', () => {
    const wait = new IngestWait(limits, 0);
    wait.observe(poll(50, 10), 0);
    expect(wait.observe(poll(50, 9), 50_000).kind).toBe('waiting'); // one more vector
    expect(wait.observe(poll(50, 9, 1), 100_000).kind).toBe('waiting'); // one more dead letter
    expect(wait.observe(poll(51, 10, 1), 150_000).kind).toBe('waiting'); // one more row
    expect(wait.observe(poll(51, 10, 1), 210_001)).toEqual({
      kind: 'stopped',
      reason: 'no progress for 60 s',
    });
  });

  it('stops at the timeout even while it progresses', () => {
    const wait = new IngestWait({ ...limits, timeoutMs: 10_000 }, 0);
    expect(wait.observe(poll(10), 5000).kind).toBe('waiting');
    expect(wait.observe(poll(20), 10_001)).toEqual({ kind: 'stopped', reason: 'timed out after 10 s' });
  });
});

describe('missingTurns', () => {
  const published = [
    { agent: 'conv-26', turnId: 'D1:1', msgId: 'conv-26/D1:1' },
    { agent: 'conv-26', turnId: 'D1:2', msgId: 'conv-26/D1:2' },
    { agent: 'conv-30', turnId: 'D1:2', msgId: 'conv-30/D1:2' },
    { agent: 'conv-30', turnId: 'D1:3', msgId: 'conv-30/D1:3' },
  ];

  it('names the turns the store lacks, in publish order, with their dead letters’ reasons', () => {
    const stored = new Set([storedTurnKey('conv-26', 'D1:1'), storedTurnKey('conv-26', 'D1:2')]);
    const letters = new Map([['conv-30/D1:2', { cause: 'invalid', reason: 'messages[0].content: empty' }]]);
    const missing = missingTurns(published, stored, letters);
    expect(missing).toEqual([
      { agent: 'conv-30', turnId: 'D1:2', why: 'dead-lettered (invalid): messages[0].content: empty' },
      { agent: 'conv-30', turnId: 'D1:3', why: 'no dead letter: still on its way, or lost' },
    ]);
    expect(describeMissingTurns(missing, 1)).toBe(
      '  conv-30 D1:2: dead-lettered (invalid): messages[0].content: empty\n  … and 1 more',
    );
  });

  it('tells apart the same turn id of two agents', () => {
    const stored = new Set([storedTurnKey('conv-26', 'D1:2')]);
    expect(missingTurns(published, stored, new Map()).map((t) => `${t.agent} ${t.turnId}`)).toEqual([
      'conv-26 D1:1',
      'conv-30 D1:2',
      'conv-30 D1:3',
    ]);
  });
});
