import { waitFor } from '@engram/testing';
import { storedMessages, type ExampleExpectation } from './example-run';

/** The example's memory item: every version of it (one: a rerun puts the same value). */
const MILK_VERSIONS = `SELECT count(*) AS n FROM facts
  WHERE tenant_id = 'acme' AND agent = 'barista' AND metadata @> '{"langgraph": {"path": "memories:ada", "key": "milk"}}'`;

export const expectation: ExampleExpectation = {
  async check(run, env) {
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n')).toEqual([
      'thread espresso-1: user: Hi, I am Ada. Please remember that I take oat milk.',
      '  tool call: remember {"topic":"milk","memory":"Ada takes oat milk"}',
      '  tool result: Saved: Ada takes oat milk',
      '  assistant: Noted, Ada: oat milk from now on.',
      'thread espresso-2: user: Make me my usual coffee.',
      '  tool call: recall {"query":"milk"}',
      '  tool result: Ada takes oat milk',
      '  assistant: A flat white with oat milk.',
      expect.stringMatching(
        /^store: memories\/ada\/milk = \{"text":"Ada takes oat milk"\} \(since \d{4}-\d\d-\d\d\)$/,
      ),
      '',
    ]);
    // Each thread's turn (question, tool call, result, answer) stored once however often it ran.
    for (const thread of ['espresso-1', 'espresso-2']) {
      await waitFor(
        `the turn of ${thread} stored`,
        async () => (await storedMessages(env, thread)) === 4,
        15_000,
      );
    }
    expect(await env.count(MILK_VERSIONS)).toBe(1);
  },
};
