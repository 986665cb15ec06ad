import type { Client } from 'pg';
import { Rpcs, timestampFromDate } from '@engram/contracts';
import { RpcClient, RpcError } from '@engram/messaging';
import { startServiceUnderTest, type ServiceUnderTest } from '@engram/testing';
import { loadRetrievalConfig } from '../retrieval.config';
import { RetrievalModule } from '../retrieval.module';

describe('memory_browse (real Postgres and NATS)', () => {
  let retrieval: ServiceUnderTest;
  let rpc: RpcClient;
  let conversationId: string;
  let otherTenantConversation: string;
  const base = Date.parse('2026-03-01T00:00:00Z');

  /** 120 messages in chat-1 (two per turn; several share a timestamp), 5 in chat-2, 3 for another tenant. */
  async function seed(admin: Client) {
    await admin.query(`INSERT INTO tenants (tenant_id) VALUES ('acme'), ('globex')`);
    const conversations = await admin.query<{ id: string; session_key: string; tenant_id: string }>(
      `INSERT INTO conversations (tenant_id, agent, session_key) VALUES
         ('acme', 'helper', 'chat-1'), ('acme', 'helper', 'chat-2'), ('globex', 'helper', 'chat-1')
       RETURNING id, session_key, tenant_id`,
    );
    const [c1, c2, g1] = conversations.rows.map((r) => String(r.id));
    conversationId = c1!;
    otherTenantConversation = g1!;
    const rows: unknown[][] = [];
    for (let i = 0; i < 120; i++) {
      const at = new Date(base + Math.floor(i / 4) * 60_000).toISOString(); // 4 messages per minute: ties on time
      rows.push([
        'acme',
        c1,
        'helper',
        `t${Math.floor(i / 2)}`,
        i % 2,
        1000 + Math.floor(i / 2),
        i % 2 ? 'assistant' : 'user',
        `m${i}`,
        at,
      ]);
    }
    for (let i = 0; i < 5; i++)
      rows.push([
        'acme',
        c2,
        'helper',
        `u${i}`,
        0,
        5000 + i,
        'user',
        `other-${i}`,
        new Date(base + i * 90_000).toISOString(),
      ]);
    for (let i = 0; i < 3; i++)
      rows.push([
        'globex',
        g1,
        'helper',
        `g${i}`,
        0,
        9000 + i,
        'user',
        `globex-${i}`,
        new Date(base).toISOString(),
      ]);
    for (const r of rows) {
      await admin.query(
        `INSERT INTO messages (tenant_id, conversation_id, agent, turn_id, position, stream_seq, role, content, token_estimate, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9)`,
        r,
      );
    }
  }

  beforeAll(async () => {
    retrieval = await startServiceUnderTest({
      label: 'browse',
      loadConfig: loadRetrievalConfig,
      module: (config) => RetrievalModule.register(config),
      seed,
    });
    rpc = retrieval.rpc;
  });

  afterAll(async () => {
    await retrieval?.stop();
  });

  const browse = (request: Parameters<RpcClient['call']>[1], tenantId = 'acme') =>
    rpc.call(Rpcs.browse, request, { tenantId });

  it('pages forward through a conversation without skipping or repeating a message, ties included', async () => {
    const seen: string[] = [];
    let cursor = '';
    let pages = 0;
    do {
      const page = await browse({ conversationId, limit: 50, cursor });
      seen.push(...page.messages.map((m) => m.content));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => `m${i}`));
  });

  it('pages backward from the end, each page in chronological order', async () => {
    const first = await browse({ agent: 'helper', sessionKey: 'chat-1', direction: 'backward', limit: 7 });
    expect(first.messages.map((m) => m.content)).toEqual([
      'm113',
      'm114',
      'm115',
      'm116',
      'm117',
      'm118',
      'm119',
    ]);
    expect(first.nextCursor).toBe(''); // nothing newer than the end
    const older = await browse({ conversationId, cursor: first.prevCursor, limit: 7 });
    expect(older.messages.map((m) => m.content)).toEqual([
      'm106',
      'm107',
      'm108',
      'm109',
      'm110',
      'm111',
      'm112',
    ]);
    const newerAgain = await browse({ conversationId, cursor: older.nextCursor, limit: 7 });
    expect(newerAgain.messages.map((m) => m.content)).toEqual(first.messages.map((m) => m.content));
  });

  it('starts from a point in time', async () => {
    const page = await browse({
      conversationId,
      from: timestampFromDate(new Date(base + 10 * 60_000)),
      limit: 3,
    });
    expect(page.messages.map((m) => m.content)).toEqual(['m40', 'm41', 'm42']);
    expect(page.prevCursor).not.toBe('');
  });

  it('opens around a message id', async () => {
    const all = await browse({ conversationId, limit: 120 });
    const anchor = all.messages.find((m) => m.content === 'm60')!;
    const page = await browse({ conversationId, aroundMessageId: anchor.id, limit: 5 });
    expect(page.messages.map((m) => m.content)).toEqual(['m58', 'm59', 'm60', 'm61', 'm62']);
    const before = await browse({ conversationId, cursor: page.prevCursor, limit: 2 });
    expect(before.messages.map((m) => m.content)).toEqual(['m56', 'm57']);
  });

  it('pages through all of an agent’s conversations by time', async () => {
    const page = await browse({ agent: 'helper', limit: 8 });
    expect(page.messages.map((m) => m.content)).toEqual([
      'm0',
      'm1',
      'm2',
      'm3',
      'other-0',
      'm4',
      'm5',
      'm6',
    ]);
    expect(new Set(page.messages.map((m) => m.conversationId)).size).toBe(2);
  });

  it('never shows another tenant’s conversation: it does not exist for this tenant', async () => {
    await expect(browse({ conversationId: otherTenantConversation })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const theirs = await browse({ conversationId: otherTenantConversation }, 'globex');
    expect(theirs.messages.map((m) => m.content)).toEqual(['globex-0', 'globex-1', 'globex-2']);
    const agentWide = await browse({ agent: 'helper', limit: 500 });
    expect(agentWide.messages.some((m) => m.content.startsWith('globex'))).toBe(false);
  });

  it('refuses a bad field before reading, with a violation naming it', async () => {
    await expect(browse({ conversationId: '1', aroundMessageId: 'm-3' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { fieldViolations: [{ field: 'aroundMessageId', description: '"m-3" is not a message id' }] },
    });
  });

  it.each([
    [{ conversationId: '1', limit: -1 }, 'INVALID_ARGUMENT', /limit must be between 1 and 500/],
    [{ conversationId: '1', limit: 501 }, 'INVALID_ARGUMENT', /limit/],
    [{ conversationId: '1', cursor: 'garbage' }, 'INVALID_ARGUMENT', /cursor/],
    [{ conversationId: 'abc' }, 'INVALID_ARGUMENT', /not a conversation id/],
    [{}, 'INVALID_ARGUMENT', /say what to browse/],
    [{ sessionKey: 'chat-1' }, 'INVALID_ARGUMENT', /needs the agent/],
    [{ conversationId: '1', direction: 'sideways' }, 'INVALID_ARGUMENT', /direction/],
    [{ agent: 'helper', sessionKey: 'nope' }, 'NOT_FOUND', /no such conversation/],
    [{ conversationId: '1', aroundMessageId: '999999' }, 'NOT_FOUND', /not in this transcript/],
  ])('answers %j with %s', async (request, code, message) => {
    const failure = await browse(request as never).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RpcError);
    expect(failure).toMatchObject({ code });
    expect((failure as RpcError).message).toMatch(message);
  });
});
