import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { EngramClient, type Transport } from '@engram/client';
import { EngramStore } from './engram-store';

/** A transport that keeps what the client publishes, as JSON, and answers every RPC with nothing. */
function recordingClient(agent = 'concierge') {
  const published: Array<{ agent: string; sessionKey: string; key: string; turn: Record<string, unknown> }> =
    [];
  const transport: Transport = {
    where: 'memory',
    tenant: 'acme',
    call: async () => new TextEncoder().encode('{}'),
    publishTurn: async ({ agent, sessionKey }, body, key) => {
      published.push({ agent, sessionKey, key, turn: JSON.parse(new TextDecoder().decode(body)) });
      return { stream: 'TURNS', seq: published.length, duplicate: false };
    },
    close: async () => undefined,
  };
  return { client: new EngramClient(transport, { agent }), published };
}

describe('EngramStore.publishTurn', () => {
  const thread = { configurable: { thread_id: 'chat-7' } };

  it("publishes a thread's turn as the agent's, keyed by its first message, tool calls included", async () => {
    const { client, published } = recordingClient();
    await new EngramStore({ client }).publishTurn(thread, [
      new HumanMessage({ id: 'q-1', content: 'What am I allergic to?' }),
      new AIMessage({
        content: '',
        tool_calls: [{ id: 'call-1', name: 'recall', args: { query: 'allergy', top: 3 } }],
      }),
      new ToolMessage({ content: 'Ada is allergic to peanuts', tool_call_id: 'call-1', name: 'recall' }),
      new AIMessage('Peanuts.'),
    ]);
    expect(published).toMatchObject([
      {
        agent: 'concierge',
        sessionKey: 'chat-7',
        key: 'q-1',
        turn: {
          turnId: 'q-1',
          agent: 'concierge',
          sessionKey: 'chat-7',
          messages: [
            { role: 'user', content: 'What am I allergic to?' },
            {
              role: 'assistant',
              toolName: 'recall',
              toolArgs: { query: 'allergy', top: 3 },
              toolCallId: 'call-1',
            },
            { role: 'tool', content: 'Ada is allergic to peanuts', toolName: 'recall', toolCallId: 'call-1' },
            { role: 'assistant', content: 'Peanuts.' },
          ],
        },
      },
    ]);
  });

  it('takes the turn id given, and says what is missing without a thread or an id', async () => {
    const { client, published } = recordingClient();
    const store = new EngramStore({ client, agent: 'barista' });
    await store.publishTurn(thread, [new HumanMessage('Hi')], { turnId: 'turn-1' });
    expect(published.map((p) => [p.agent, p.key])).toEqual([['barista', 'turn-1']]);
    await expect(store.publishTurn({}, [new HumanMessage({ id: 'q-2', content: 'Hi' })])).rejects.toThrow(
      /run the graph with \{ configurable: \{ thread_id \} \}/,
    );
    await expect(store.publishTurn(thread, [new HumanMessage('Hi')])).rejects.toThrow(
      /publishTurn needs a turn id/,
    );
  });

  it("needs an agent, its own or the client's", () => {
    const { client } = recordingClient('');
    expect(() => new EngramStore({ client })).toThrow(/EngramStore needs an agent/);
    expect(new EngramStore({ client, agent: 'barista' }).agent).toBe('barista');
  });
});
