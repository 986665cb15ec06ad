import {
  create,
  DeadLetterSchema,
  EmbeddingWrittenSchema,
  encodeMessage,
  FactUpsertedSchema,
  MessageStoredSchema,
  PatrolCompletedSchema,
  Subjects,
  TurnEventSchema,
  type DescMessage,
  type MessageInitShape,
} from '@engram/contracts';
import { deadLetterInErasure, inErasure, type StreamErasure } from './stream-erasure';

const bytes = <S extends DescMessage>(schema: S, init: MessageInitShape<S>) =>
  encodeMessage(schema, create(schema, init));
const turn = (sessionKey: string) =>
  bytes(TurnEventSchema, {
    turnId: 't1',
    sessionKey,
    messages: [{ role: 'user', content: 'my PIN is 4417' }],
  });

const conversation: StreamErasure = {
  tenantId: 'acme',
  scope: 'conversation',
  agent: 'ada',
  conversationId: '12',
  sessionKey: 'chat-1',
};
const agent: StreamErasure = { ...conversation, scope: 'agent', conversationId: '', sessionKey: '' };
const tenant: StreamErasure = { ...agent, scope: 'tenant', agent: '' };

describe('what of the streams an erasure removes', () => {
  it('takes a conversation’s turns by agent and session key, and nothing of another tenant or agent', () => {
    expect(inErasure(conversation, Subjects.turn('acme', 'ada'), turn('chat-1'))).toBe(true);
    expect(inErasure(conversation, Subjects.turn('acme', 'ada'), turn('chat-2'))).toBe(false);
    expect(inErasure(conversation, Subjects.turn('acme', 'bob'), turn('chat-1'))).toBe(false);
    expect(inErasure(conversation, Subjects.turn('globex', 'ada'), turn('chat-1'))).toBe(false);
    // Ingest stores NUL as U+FFFD, and so does the conversation's key.
    expect(
      inErasure({ ...conversation, sessionKey: 'a\uFFFDb' }, Subjects.turn('acme', 'ada'), turn('a\u0000b')),
    ).toBe(true);
  });

  it('leaves a turn that does not decode to the erasure of its agent or tenant', () => {
    const broken = new TextEncoder().encode('{"sessionKey": "chat-1", ');
    expect(inErasure(conversation, Subjects.turn('acme', 'ada'), broken)).toBe(false);
    expect(inErasure(agent, Subjects.turn('acme', 'ada'), broken)).toBe(true);
    expect(inErasure(tenant, Subjects.turn('acme', 'ada'), broken)).toBe(true);
  });

  it('takes events by the agent and conversation they name; events naming neither only with the tenant', () => {
    const stored = (agentName: string, conversationId: string) =>
      bytes(MessageStoredSchema, {
        tenantId: 'acme',
        agent: agentName,
        conversationId,
        sessionKey: 'chat-1',
      });
    const subject = Subjects.messageStored('acme');
    expect(inErasure(conversation, subject, stored('ada', '12'))).toBe(true);
    expect(inErasure(conversation, subject, stored('ada', '13'))).toBe(false);
    expect(inErasure(agent, subject, stored('ada', '13'))).toBe(true);
    expect(inErasure(agent, subject, stored('bob', '13'))).toBe(false);
    const fact = bytes(FactUpsertedSchema, { agent: 'ada', factId: '5', conversationId: '12' });
    expect(inErasure(conversation, Subjects.factUpserted('acme'), fact)).toBe(true);
    const vectors = bytes(EmbeddingWrittenSchema, { tenantId: 'acme', kind: 'message', ids: ['1'] });
    expect(inErasure(agent, Subjects.embeddingWritten('acme'), vectors)).toBe(false);
    expect(inErasure(tenant, Subjects.embeddingWritten('acme'), vectors)).toBe(true);
    expect(inErasure(tenant, Subjects.embeddingWritten('globex'), vectors)).toBe(false);
    const patrol = bytes(PatrolCompletedSchema, { agent: 'ada', runId: '3' });
    expect(inErasure(agent, Subjects.patrolCompleted('acme'), patrol)).toBe(true);
    expect(inErasure(conversation, Subjects.patrolCompleted('acme'), patrol)).toBe(false);
  });

  it('finds no agent in a conversation that was not found, and takes nothing for it', () => {
    const unknown = { ...conversation, agent: '', sessionKey: '' };
    expect(inErasure(unknown, Subjects.turn('acme', 'ada'), turn('chat-1'))).toBe(false);
    expect(
      inErasure(
        unknown,
        Subjects.messageStored('acme'),
        bytes(MessageStoredSchema, { conversationId: '12' }),
      ),
    ).toBe(false);
  });

  it('judges a dead letter by its original subject and message', () => {
    const letter = (originalSubject: string, originalData: Uint8Array) =>
      bytes(DeadLetterSchema, {
        stream: 'TURNS',
        consumer: 'ingest-turns',
        originalSubject,
        originalData,
        cause: 'invalid',
      });
    expect(deadLetterInErasure(conversation, letter(Subjects.turn('acme', 'ada'), turn('chat-1')))).toBe(
      true,
    );
    expect(deadLetterInErasure(conversation, letter(Subjects.turn('acme', 'ada'), turn('chat-9')))).toBe(
      false,
    );
    expect(deadLetterInErasure(tenant, letter(Subjects.turn('globex', 'ada'), turn('chat-1')))).toBe(false);
    expect(deadLetterInErasure(tenant, new TextEncoder().encode('not a letter'))).toBe(false);
  });
});
