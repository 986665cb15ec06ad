import { waitFor } from '@engram/testing';
import { storedMessages, type ExampleExpectation } from './example-run';

export const expectation: ExampleExpectation = {
  async check(run, env) {
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.match(/^prompt: \d+ of 96000 tokens \(identity, tools.*\)$/gm)).toHaveLength(2);
    expect(run.stdout).toMatch(/^assistant: \(\d+ messages in\) Glad to help with: Hi, I am Ada\. .*$/m);
    expect(run.stdout).toMatch(
      /^assistant: \(\d+ messages in\) Glad to help with: Where is my order 1042\?$/m,
    );
    // Both turns went to memory (user + assistant each), once however often the example ran.
    await waitFor('the two turns stored', async () => (await storedMessages(env, 'chat-7')) === 4, 15_000);
  },
};
