import { waitFor } from '@engram/testing';
import { storedMessages, type ExampleExpectation } from './example-run';

export const expectation: ExampleExpectation = {
  async check(run, env) {
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const thread = /^thread: ([0-9a-f-]{36})$/m.exec(run.stdout)?.[1];
    expect(thread).toBeDefined();
    expect(run.stdout.replace(thread!, '<thread>')).toBe(
      [
        'thread: <thread>',
        'user: Hi, I am Ada. I prefer window seats.',
        'assistant: Noted, Ada: window seats from now on.',
        'user: Book me a seat on the 9:40 to Lyon.',
        // The seat came from Engram's context build (the remembered fact), the name from the thread.
        'assistant: Booking a window seat on the 9:40 to Lyon for Ada.',
        'the thread holds: user, assistant, user, assistant',
        '',
      ].join('\n'),
    );
    // Both turns went to memory, one Engram message per Mastra message; the fact once however often it ran.
    await waitFor('the two turns stored', async () => (await storedMessages(env, thread!)) === 4, 15_000);
    expect(
      await env.count(
        `SELECT count(*) AS n FROM facts
          WHERE tenant_id = 'acme' AND agent = 'mastra-travel' AND content = 'Ada prefers window seats.'`,
      ),
    ).toBe(1);
  },
};
