import { request } from 'undici';
import { DataSource } from 'typeorm';
import { ApiKeyStore, createDataSource } from '@engram/store';
import { startTestEnvironment, type TestEnvironment } from '@engram/testing';
import type { MemoryClient as MemoryClientType } from 'mem0ai';

/**
 * An application built on mem0's official JavaScript client, pointed at Engram: MemoryClient
 * with `host` …/mem0 and an Engram key, against the api and the services behind it as processes.
 */
describe('mem0-compatible API (the real mem0ai MemoryClient)', () => {
  let env: TestEnvironment;
  let dataSource: DataSource;
  let base: string;
  let acmeKey: string;
  let client: MemoryClientType;
  let other: MemoryClientType;

  beforeAll(async () => {
    process.env.MEM0_TELEMETRY = 'false'; // read when mem0ai loads: no calls home
    const { MemoryClient } = await import('mem0ai');
    env = await startTestEnvironment({
      label: 'mem0',
      processes: ['gerty', 'ingest', 'embedder', 'compactor', 'retrieval', 'api'],
    });
    base = `http://127.0.0.1:${env.process('api').httpPort}`;
    dataSource = createDataSource(env.env.DATABASE_URL, { poolSize: 1, applicationName: 'mem0-spec' });
    await dataSource.initialize();
    const keys = new ApiKeyStore(dataSource);
    acmeKey = (await keys.create('acme', 'mem0 app')).key;
    client = new MemoryClient({ apiKey: acmeKey, host: `${base}/mem0` });
    other = new MemoryClient({ apiKey: (await keys.create('globex')).key, host: `${base}/mem0` });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await env?.stop();
  });

  const alice = 'alice@example.com';
  const texts = (memories: Array<{ memory?: string }>) => memories.map((m) => m.memory).sort();

  it('pings, adds without inference, and lists, filters and pages what it added', async () => {
    await client.ping();
    const added = await client.add(
      [
        { role: 'user', content: 'I am vegetarian and I love spicy Thai food.' },
        { role: 'assistant', content: 'Got it: vegetarian, spicy Thai food.' },
      ],
      { userId: alice, infer: false, runId: 'dinner-chat' },
    );
    expect(added.map((m) => m.event)).toEqual(['ADD', 'ADD']);
    expect(added[0]!.id).toMatch(/^[0-9]+$/);
    await client.add([{ role: 'user', content: 'I play the cello on Sundays.' }], {
      userId: 'bob',
      infer: false,
    });

    const all = await client.getAll({ filters: { user_id: alice } });
    expect(all.count).toBe(2);
    expect(texts(all.results)).toEqual([
      'Got it: vegetarian, spicy Thai food.',
      'I am vegetarian and I love spicy Thai food.',
    ]);
    expect(all.results[0]).toMatchObject({ userId: alice, categories: ['general'] });

    const paged = await client.getAll({ filters: { user_id: alice }, page: 2, pageSize: 1 });
    expect(paged.results).toHaveLength(1);
    expect(paged.previous).toContain('page=1');
    expect(paged.next).toBeNull();

    const either = await client.getAll({ filters: { OR: [{ user_id: alice }, { user_id: 'bob' }] } });
    expect(either.count).toBe(3);
    const both = await client.getAll({ filters: { AND: [{ user_id: alice }, { run_id: 'dinner-chat' }] } });
    expect(both.count).toBe(2);
    const elsewhere = await client.getAll({
      filters: { AND: [{ user_id: alice }, { run_id: 'other-chat' }] },
    });
    expect(elsewhere.count).toBe(0);
  });

  it('searches with top_k and filters, scores in [0, 1] in descending order', async () => {
    const { results } = await client.search('what food does she like', {
      filters: { user_id: alice },
      topK: 5,
    });
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(5);
    expect(results[0]!.memory).toMatch(/Thai/);
    const scores = results.map((r) => r.score!);
    for (const s of scores) expect(s).toBeGreaterThanOrEqual(0);
    for (const s of scores) expect(s).toBeLessThanOrEqual(1);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const bobs = await client.search('what food does she like', { filters: { user_id: 'bob' } });
    expect(bobs.results.every((r) => !/Thai/.test(r.memory ?? ''))).toBe(true);
    expect((await client.search('Thai food', { filters: { user_id: alice }, topK: 1 })).results).toHaveLength(
      1,
    );
  });

  it('gets, updates and deletes a memory, with its history of ADD, UPDATE and DELETE', async () => {
    const [memory] = await client.add([{ role: 'user', content: 'My favourite colour is teal.' }], {
      userId: alice,
      infer: false,
    });
    const id = memory!.id;
    expect((await client.get(id)).memory).toBe('My favourite colour is teal.');

    const updated = (await client.update(id, { text: 'My favourite colour is orange.' })) as unknown as {
      memory: string;
      id: string;
    };
    expect(updated.memory).toBe('My favourite colour is orange.');
    // The memory keeps answering to the id the app holds.
    expect((await client.get(id)).memory).toBe('My favourite colour is orange.');
    const { results } = await client.search('favourite colour', { filters: { user_id: alice } });
    expect(results.map((r) => r.memory)).not.toContain('My favourite colour is teal.');

    expect(await client.delete(id)).toEqual({ message: 'Memory deleted successfully!' });
    await expect(client.get(id)).rejects.toThrow(/deleted|404|not found/i);
    const history = await client.history(id);
    expect(history.map((h) => h.event)).toEqual(['ADD', 'UPDATE', 'DELETE']);
    expect(history[1]).toMatchObject({
      oldMemory: 'My favourite colour is teal.',
      newMemory: 'My favourite colour is orange.',
    });
    expect(history[2]).toMatchObject({ oldMemory: 'My favourite colour is orange.', newMemory: null });
  });

  it('keeps the id an app holds across updates: get, getAll and search answer the new text under it', async () => {
    const [memory] = await client.add([{ role: 'user', content: 'I drive a blue bicycle to work.' }], {
      userId: 'dave',
      infer: false,
    });
    const id = memory!.id;
    await client.update(id, { text: 'I drive a red scooter to work.' });
    await client.update(id, { text: 'I take the tram to work.' });

    expect(await client.get(id)).toMatchObject({ id, memory: 'I take the tram to work.' });
    const all = await client.getAll({ filters: { user_id: 'dave' } });
    expect(all.results.map((m) => [m.id, m.memory])).toEqual([[id, 'I take the tram to work.']]);
    const found = await client.search('how do I get to work', { filters: { user_id: 'dave' } });
    expect(found.results.map((m) => [m.id, m.memory])).toEqual([[id, 'I take the tram to work.']]);
    // The versions stay in its history.
    expect((await client.history(id)).map((h) => [h.event, h.newMemory])).toEqual([
      ['ADD', 'I drive a blue bicycle to work.'],
      ['UPDATE', 'I drive a red scooter to work.'],
      ['UPDATE', 'I take the tram to work.'],
    ]);
  });

  it('stores metadata, returns it, updates it and filters by it', async () => {
    const [thai] = await client.add([{ role: 'user', content: 'Erin loves green curry.' }], {
      userId: 'erin',
      infer: false,
      metadata: { source: 'onboarding', tier: 2 },
    });
    await client.add([{ role: 'user', content: 'Erin loves mango sticky rice.' }], {
      userId: 'erin',
      infer: false,
      metadata: { source: 'chat' },
    });
    expect((await client.get(thai!.id)).metadata).toEqual({ source: 'onboarding', tier: 2 });

    const onboarding = await client.getAll({
      filters: { AND: [{ user_id: 'erin' }, { metadata: { source: 'onboarding' } }] },
    });
    expect(onboarding.results.map((m) => m.memory)).toEqual(['Erin loves green curry.']);
    const searched = await client.search('what does Erin love', {
      filters: { AND: [{ user_id: 'erin' }, { metadata: { source: { eq: 'chat' } } }] },
    });
    expect(searched.results.map((m) => [m.memory, m.metadata])).toEqual([
      ['Erin loves mango sticky rice.', { source: 'chat' }],
    ]);

    // Metadata alone is updated; the text stays, and so does the id.
    await client.update(thai!.id, { metadata: { source: 'crm', tier: 3 } });
    expect(await client.get(thai!.id)).toMatchObject({
      id: thai!.id,
      memory: 'Erin loves green curry.',
      metadata: { source: 'crm', tier: 3 },
    });
    expect(
      (await client.getAll({ filters: { AND: [{ user_id: 'erin' }, { metadata: { tier: 3 } }] } })).count,
    ).toBe(1);
    // Comparisons Engram does not make are refused by name, not ignored.
    await expect(
      client.getAll({ filters: { AND: [{ user_id: 'erin' }, { metadata: { tier: { gt: 1 } } }] } }),
    ).rejects.toThrow(/gt is not supported/);
  });

  it('answers 404 for an unknown id and for another tenant’s memory', async () => {
    await expect(client.get('999999999')).rejects.toThrow();
    const [memory] = await client.add([{ role: 'user', content: 'Secret: the vault code is 7712.' }], {
      userId: alice,
      infer: false,
    });
    await expect(other.get(memory!.id)).rejects.toThrow();
    expect((await other.getAll({ filters: { user_id: alice } })).count).toBe(0);
    const raw = await request(`${base}/mem0/v1/memories/abc/`, {
      headers: { authorization: `Token ${acmeKey}` },
    });
    expect(raw.statusCode).toBe(404);
    expect(await raw.body.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('lists entities and deletes all of a user, answering JSON on every DELETE', async () => {
    const entities = await client.users();
    expect(entities.results.map((e) => e.name)).toEqual(expect.arrayContaining(['bob']));
    expect(await client.deleteAll({ userId: 'bob' })).toMatchObject({
      message: 'Memories deleted successfully!',
    });
    expect((await client.getAll({ filters: { user_id: 'bob' } })).count).toBe(0);
    await client.deleteUsers({ userId: alice });
    expect((await client.getAll({ filters: { user_id: alice } })).count).toBe(0);
  });

  it('adds with inference: the facts the model finds in the messages, as ADD events', async () => {
    const added = await client.add(
      [{ role: 'user', content: 'I am allergic to peanuts. Please remember that I live in Lisbon.' }],
      { userId: 'carol' },
    );
    expect(added.length).toBeGreaterThan(0);
    expect(added.every((m) => m.event === 'ADD')).toBe(true);
    expect(added.map((m) => m.memory).join(' ')).toMatch(/peanut|Lisbon/i);
    const listed = texts((await client.getAll({ filters: { user_id: 'carol' } })).results);
    expect(listed).toEqual(texts(added));
    // The words are kept in the transcript, and nothing else was derived from them.
    expect(
      await env.count(`SELECT count(*) AS n FROM messages WHERE tenant_id = 'acme' AND agent = 'carol'`),
    ).toBe(1);
  });

  it('refuses bad input with a clear 4xx, never a 5xx', async () => {
    const send = (method: string, path: string, body?: string) =>
      request(`${base}/mem0${path}`, {
        method: method as 'POST',
        headers: { authorization: `Token ${acmeKey}`, 'content-type': 'application/json' },
        body,
      });
    const cases: Array<[string, string, string | undefined, number]> = [
      ['POST', '/v3/memories/add/', '{"messages": [', 400],
      ['POST', '/v3/memories/add/', JSON.stringify({ messages: 'hi' }), 400],
      [
        'POST',
        '/v3/memories/add/',
        JSON.stringify({ messages: [{ role: 'user', content: 5 }], user_id: 'a' }),
        400,
      ],
      ['POST', '/v3/memories/add/', JSON.stringify({ messages: 'hi', user_id: 'a', colour: 'red' }), 400],
      [
        'POST',
        '/v3/memories/search/',
        JSON.stringify({ query: 'x', filters: { user_id: 'a' }, top_k: 'ten' }),
        400,
      ],
      ['POST', '/v3/memories/search/', JSON.stringify({ query: 'x' }), 400],
      ['POST', '/v3/memories/', JSON.stringify({ filters: { nickname: 'a' } }), 400],
      ['PUT', '/v1/memories/1/', JSON.stringify({ text: '' }), 400],
      ['DELETE', '/v1/entities/planet/mars/', undefined, 400],
      ['POST', '/v3/memories/add/', JSON.stringify({ messages: 'x'.repeat(1_100_000), user_id: 'a' }), 413],
    ];
    for (const [method, path, body, status] of cases) {
      const answer = await send(method, path, body);
      const json = (await answer.body.json()) as { code: string };
      expect({ path, status: answer.statusCode }).toEqual({ path, status });
      expect(json.code).toBeDefined();
    }
  });
});
