import { parseTaskInput, renderTaskPrompt, EXTRACTED_FACTS_JSON_SCHEMA } from '../index';

describe('task prompts', () => {
  const lines = [
    {
      id: '11',
      at: '2026-04-18T12:00:30Z',
      role: 'user',
      author: 'ada',
      text: 'Merge PR #482 after commit 9f3c2ab passes.',
    },
    { id: '12', at: '2026-04-18T12:05:00Z', role: 'system', text: 'Deploy window:\nFridays only.' },
  ];

  it('renders summary sources with ISO-minute timestamps, attribution per line and a preamble', () => {
    const input = parseTaskInput('summarize', {
      preamble: {
        conversationId: 'c-42',
        agent: 'opus',
        channel: 'slack',
        title: 'Release',
        from: '2026-04-18T12:00:30Z',
        to: '2026-04-18T12:05:00Z',
        messageCount: 2,
      },
      lines,
    });
    if (!input.ok) throw new Error(input.problems.join('; '));
    const prompt = renderTaskPrompt('summarize', input.value);
    const user = prompt.messages[1]!.content;
    expect(user).toContain(
      'Conversation c-42 · agent opus · channel slack · "Release" · 2026-04-18T12:00Z–2026-04-18T12:05Z · 2 messages',
    );
    expect(user).toContain('[#01 2026-04-18T12:00Z ada/user] Merge PR #482 after commit 9f3c2ab passes.');
    expect(user).toContain('[#02 2026-04-18T12:05Z system] Deploy window: Fridays only.');
    expect(prompt.messages[0]!.content).toMatch(/identifiers verbatim/i);
    expect(prompt.messages[0]!.content).toMatch(/no LaTeX/);
    expect(prompt.maxTokens).toBeUndefined();
  });

  it('gives a summary its depth’s budget: a length to write and max_tokens to think and write in', () => {
    const input = parseTaskInput('summarize', {
      preamble: {
        conversationId: 'c-42',
        from: '2026-04-18T12:00:30Z',
        to: '2026-04-18T12:05:00Z',
        messageCount: 2,
      },
      lines,
      depth: 2,
      maxChars: 40_000,
      maxTokens: 20_000,
    });
    if (!input.ok) throw new Error(input.problems.join('; '));
    const prompt = renderTaskPrompt('summarize', input.value);
    expect(prompt.messages[0]!.content).toContain('- At most 40000 characters.');
    expect(prompt.maxTokens).toBe(20_000);
  });

  it('asks for facts as JSON with the message ids to cite', () => {
    const input = parseTaskInput('extract_facts', { messages: lines, userName: 'Ada' });
    if (!input.ok) throw new Error(input.problems.join('; '));
    const prompt = renderTaskPrompt('extract_facts', input.value);
    expect(prompt.messages[1]!.content).toContain('[#01 2026-04-18T12:00Z ada/user] (id 11) Merge PR #482');
    expect(prompt.messages[0]!.content).toContain('The user is called Ada.');
    // Today, as the messages have it, with its day name ("next Monday" needs it); the current request left out.
    expect(prompt.messages[0]!.content).toContain(
      'Today is 2026-04-18 (Saturday): the date of the latest message.',
    );
    expect(prompt.messages[0]!.content).toMatch(/request being worked on right now/);
    expect(prompt.jsonSchema).toBe(EXTRACTED_FACTS_JSON_SCHEMA);
    expect(JSON.stringify(EXTRACTED_FACTS_JSON_SCHEMA)).toContain('"correction"');
  });

  it('names what is wrong with an input', () => {
    const bad = parseTaskInput('extract_facts', {
      messages: [{ id: '1', at: 'yesterday', role: 'robot', text: 'x' }],
    });
    expect(bad).toEqual({
      ok: false,
      problems: expect.arrayContaining([
        expect.stringMatching(/^messages\[0\]\.at:/),
        expect.stringMatching(/^messages\[0\]\.role:/),
      ]),
    });
    expect(parseTaskInput('describe_tool_call', {})).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^toolName:/)],
    });
  });
});
