import { waitFor } from '@engram/testing';
import { storedMessages, type ExampleExpectation } from './example-run';

export const expectation: ExampleExpectation = {
  async check(run, env) {
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    // Rosa is the name Engram's identity block gave the mock model; "metric" came from the first turn.
    expect(run.stdout).toMatch(
      /^assistant: Hello Ada, I am Rosa\. I will keep to metric units\.\n(tool memory_save: (Remembered as|Already remembered as) fact:\d+\b.*)\nassistant: Saved\. I will keep to metric units\.\n$/,
    );
    // Turn 1 (user, assistant) and turn 2 (user, tool call; tool result, assistant), once however often it ran.
    await waitFor(
      'the two turns stored',
      async () => (await storedMessages(env, 'ai-sdk-chat')) === 6,
      15_000,
    );
    expect(
      await env.count(
        `SELECT count(*) AS n FROM facts WHERE tenant_id = 'acme' AND agent = 'trip-planner' AND content = $1`,
        ['Ada: my flight lands at 9:40.'],
      ),
    ).toBe(1);
  },
};
