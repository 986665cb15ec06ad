import {
  chunksOf,
  compactionStepKey,
  DEFAULT_SESSION_COMPACTION_POLICY as policy,
  planSessionCompaction,
  summaryChunks,
  unreadByTurns,
} from './session-compaction';

const messages = (tokens: number[]) => tokens.map((t, i) => ({ id: String(i + 1), tokens: t }));

describe('planSessionCompaction', () => {
  it('does nothing at or under 75 % of the window', () => {
    expect(planSessionCompaction(messages(Array(30).fill(200)), 8000, policy, false)).toBeNull(); // 6,000 = 75 %
    expect(planSessionCompaction([], 8000, policy, false)).toBeNull();
  });

  it('compacts the oldest until at most 40 % of the window is left', () => {
    const step = planSessionCompaction(messages(Array(31).fill(200)), 8000, policy, false)!; // 6,200 > 6,000
    // 3,200 (40 %) = 16 messages left: the oldest 15 go.
    expect(step.messages.map((m) => m.id)).toEqual(Array.from({ length: 15 }, (_, i) => String(i + 1)));
    expect(step.compactedTokens).toBe(3000);
    expect(step.remainingTokens).toBe(3200);
    expect(step.cutShort).toBe(false);
  });

  it('compacts at most stepMessages at once, and continues a step cut short below the trigger', () => {
    const backlog = messages(Array(1000).fill(10)); // 10,000 of an 8,000 window
    const first = planSessionCompaction(backlog, 8000, policy, false)!;
    expect(first.messages).toHaveLength(240);
    expect(first).toMatchObject({ remainingTokens: 7600, cutShort: true });

    const rest = backlog.slice(240);
    expect(planSessionCompaction(rest, 8000, policy, true)).toMatchObject({
      remainingTokens: 5200,
      cutShort: true,
    });

    const underTrigger = rest.slice(240); // 5,200: under 75 %, due only as the rest of a step cut short
    expect(planSessionCompaction(underTrigger, 8000, policy, false)).toBeNull();
    const last = planSessionCompaction(underTrigger, 8000, policy, true)!;
    expect(last).toMatchObject({ remainingTokens: 3200, cutShort: false }); // down to 40 %: 200 go
    expect(last.messages).toHaveLength(200);
    expect(planSessionCompaction(rest.slice(440), 8000, policy, true)).toBeNull();
  });

  it('always keeps the newest 10, even when they alone hold more than 40 %', () => {
    const tokens = [...Array(5).fill(100), ...Array(10).fill(600)]; // 6,500; the newest 10 hold 6,000
    const step = planSessionCompaction(messages(tokens), 8000, policy, false)!;
    expect(step.messages.map((m) => m.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(step.remainingTokens).toBe(6000);
  });

  it('compacts nothing when only the newest 10 are uncompacted', () => {
    expect(planSessionCompaction(messages(Array(10).fill(1000)), 8000, policy, false)).toBeNull();
  });

  it('takes the share and the kept count from the policy', () => {
    const step = planSessionCompaction(
      messages(Array(10).fill(100)),
      1000,
      { ...policy, triggerShare: 0.5, keepShare: 0.2, keepMessages: 2 },
      false,
    )!;
    expect(step.messages).toHaveLength(8);
    expect(step.remainingTokens).toBe(200);
  });

  it('may leave less than 40 % when one old message is large', () => {
    const step = planSessionCompaction(messages([5000, ...Array(12).fill(100)]), 8000, policy, false)!;
    expect(step.messages.map((m) => m.id)).toEqual(['1']);
    expect(step.remainingTokens).toBe(1200);
  });
});

describe('summaryChunks', () => {
  it('cuts consecutive chunks that fit beside the running summary and never cuts a message', () => {
    const chunks = summaryChunks(messages([100, 100, 100, 900, 100]), 1000, 500);
    // limit 1000 - 500 - 12 = 488; each line costs tokens + 12.
    expect(chunks.map((c) => c.map((m) => m.id))).toEqual([['1', '2', '3'], ['4'], ['5']]);
  });
});

describe('chunksOf / compactionStepKey', () => {
  it('groups by size and names a step by its conversation and newest message', () => {
    expect(chunksOf([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(compactionStepKey('7', '42')).toBe('compaction-7-42');
  });
});

describe('unreadByTurns', () => {
  /** "u" a message, "A" the last assistant message of its turn. */
  const transcript = (shape: string) =>
    [...shape].map((c, i) => ({ id: String(i + 1), endsTurn: c === 'A' }));
  const unread = (shape: string, window: number) => unreadByTurns(transcript(shape), window).map((m) => m.id);

  it('leaves out what a following turn end reads within its window, itself included', () => {
    expect(unread('uAuA', 15)).toEqual([]);
    // A window of 3: the end at 3 reads 1–3, the end at 6 reads 4–6; with no end at 3, 1–3 are unread.
    expect(unread('uuAuuA', 3)).toEqual([]);
    expect(unread('uuuuuA', 3)).toEqual(['1', '2', '3']);
  });

  it('keeps what no turn end follows: user-only turns, the tail after the last answer', () => {
    expect(unread('uuu', 15)).toEqual(['1', '2', '3']);
    expect(unread('uAuu', 15)).toEqual(['3', '4']);
    expect(unread('', 15)).toEqual([]);
  });
});
