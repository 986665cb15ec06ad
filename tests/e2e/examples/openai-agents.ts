import { waitFor } from '@engram/testing';
import { storedMessages, type ExampleExpectation } from './example-run';

export const expectation: ExampleExpectation = {
  async check(run, env) {
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const session = /^session: ([0-9a-f-]{36})$/m.exec(run.stdout)?.[1];
    expect(session).toBeDefined();
    expect(run.stdout.replace(session!, '<session>')).toBe(
      [
        'session: <session>',
        'user: Hi, I am Ada. I prefer window seats.',
        'assistant: Noted, Ada: window seats from now on.',
        'user: Book me a seat on the 9:40 to Lyon.',
        // The seat came from Engram's context build (the remembered fact), the name from the session.
        'assistant: Booking a window seat on the 9:40 to Lyon for Ada.',
        'the session holds: message, function_call, function_call_result, message, message, message',
        '',
      ].join('\n'),
    );
    // Both turns went to memory, one message per item; the fact once however often the example ran.
    await waitFor('the two turns stored', async () => (await storedMessages(env, session!)) === 6, 15_000);
    expect(
      await env.count(
        `SELECT count(*) AS n FROM facts
          WHERE tenant_id = 'acme' AND agent = 'travel-agent' AND content = 'Ada prefers window seats.'`,
      ),
    ).toBe(1);
  },
};
