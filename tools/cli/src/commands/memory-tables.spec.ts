import {
  create,
  FactHistorySchema,
  FactSchema,
  ListFactsResponseSchema,
  ListStateResponseSchema,
  SearchResponseSchema,
  StatsResponseSchema,
  timestampFromDate,
  type MessageInitShape,
} from '@engram/contracts';
import {
  cell,
  factStatus,
  jsonDocument,
  renderFactHistory,
  renderFacts,
  renderSearch,
  renderState,
  renderStats,
} from './memory-tables';

const at = (iso: string) => timestampFromDate(new Date(iso));
const NOW = new Date('2026-03-10T00:00:00Z');
const fact = (init: MessageInitShape<typeof FactSchema>) =>
  create(FactSchema, {
    agent: 'helper',
    category: 'fact',
    importance: 5,
    createdAt: at('2026-03-01T10:00:00Z'),
    ...init,
  });

describe('the engram command’s tables', () => {
  it('rank search hits, with expansions under their hit, the answer and why it was degraded', () => {
    const response = create(SearchResponseSchema, {
      hits: [
        {
          id: '6',
          kind: 'fact',
          content: 'Ada prefers metric units.',
          score: 0.91,
          createdAt: at('2026-03-01T10:00:00Z'),
          provenance: { agent: 'helper' },
        },
        {
          id: '12',
          kind: 'message',
          content: 'Please use   metric\nunits.',
          expandedFrom: 'fact:6',
          provenance: { role: 'user', author: 'Ada' },
        },
        {
          id: '40',
          kind: 'message',
          content: 'x'.repeat(300),
          score: 0.5,
          provenance: { role: 'assistant' },
        },
      ],
      synthesis: { answer: 'Ada prefers metric units [fact:6].', model: 'engram-local-rules-v1' },
      degraded: true,
      degradedReason: 'no query vector (gerty: timeout)',
    });
    const text = renderSearch(response);
    expect(text).toMatch(
      /│ 1 +│ 0\.910 │ fact:6 +│ 2026-03-01 10:00:00 │ helper +│ Ada prefers metric units\. +│/,
    );
    expect(text).toMatch(/│ +│ +│ ↳ message:12 │ — +│ Ada +│ Please use metric units\. +│/);
    expect(text).toMatch(/│ 2 +│ 0\.500 │ message:40/);
    expect(text).toContain(`${'x'.repeat(99)}…`);
    expect(text).toContain('answer (engram-local-rules-v1): Ada prefers metric units [fact:6].');
    expect(text).toContain('degraded: no query vector (gerty: timeout)');
    expect(renderSearch(create(SearchResponseSchema, {}))).toBe('no hits');
  });

  it('list facts with their status and the page they are', () => {
    const response = create(ListFactsResponseSchema, {
      facts: [
        fact({ id: '9', content: 'Ada lives in Lisbon.' }),
        fact({
          id: '4',
          content: 'Ada lives in Porto.',
          validTo: at('2026-03-02T00:00:00Z'),
          supersededBy: '9',
        }),
        fact({ id: '3', content: 'Ada owns a kayak.', validTo: at('2026-03-02T00:00:00Z') }),
        fact({ id: '2', content: 'Sprint: exports.', expiresAt: at('2026-03-05T00:00:00Z') }),
      ],
      total: 42n,
    });
    const text = renderFacts(response, 20, NOW);
    expect(text).toMatch(
      /│ 9 +│ helper │ fact +│ 5 +│ 2026-03-01 10:00:00 │ in force +│ Ada lives in Lisbon\. │/,
    );
    expect(text).toContain('│ superseded by 9 │');
    expect(text).toContain('│ forgotten');
    expect(text).toContain('│ expired');
    expect(text.split('\n').at(-1)).toBe('21-24 of 42');
    expect(renderFacts(create(ListFactsResponseSchema, { total: 0n }), 0, NOW)).toBe('no facts (0 match)');
  });

  it('show a fact’s history step by step', () => {
    const history = create(FactHistorySchema, {
      current: fact({
        id: '9',
        firstId: '4',
        content: 'Ada lives in Lisbon.',
        validTo: at('2026-03-03T00:00:00Z'),
      }),
      versions: [
        {
          event: 'ADD',
          fact: { id: '4' },
          newContent: 'Ada lives in Porto.',
          at: at('2026-03-01T10:00:00Z'),
        },
        {
          event: 'UPDATE',
          fact: { id: '9' },
          oldContent: 'Ada lives in Porto.',
          newContent: 'Ada lives in Lisbon.',
          at: at('2026-03-02T10:00:00Z'),
        },
        {
          event: 'DELETE',
          fact: { id: '9' },
          oldContent: 'Ada lives in Lisbon.',
          at: at('2026-03-03T00:00:00Z'),
        },
      ],
    });
    const text = renderFactHistory(history, NOW);
    expect(text.split('\n')[0]).toBe('fact 9 (first version 4), forgotten: Ada lives in Lisbon.');
    expect(text).toMatch(
      /│ UPDATE │ 9 +│ 2026-03-02 10:00:00 │ Ada lives in Porto\. +│ Ada lives in Lisbon\. │/,
    );
    expect(text).toMatch(/│ DELETE │ 9 /);
  });

  it('show state, stats and what a status is', () => {
    const state = create(ListStateResponseSchema, {
      entries: [
        {
          key: 'current_project',
          value: 'engram',
          statedAt: at('2026-03-01T10:00:00Z'),
          sourceMessageId: '41',
        },
      ],
    });
    expect(renderState(state)).toMatch(/│ current_project │ engram │ 2026-03-01 10:00:00 │ 41 +│/);
    expect(renderState(create(ListStateResponseSchema, {}))).toBe('no state');
    const stats = renderStats(
      create(StatsResponseSchema, {
        messages: 10n,
        messagesEmbedded: 5n,
        embeddingCoverage: 0.5,
        factsByCategory: { preference: 2n, fact: 1n },
        queues: [{ name: 'ingest-turns', pending: 3n }],
      }),
    );
    expect(stats).toMatch(/│ messages embedded +│ 5 \(50\.0 %\) │/);
    expect(stats).toMatch(/│ fact +│ 1 +│[\s\S]*│ preference +│ 2 +│/);
    expect(stats).toMatch(/│ ingest-turns +│ 3 +│ 0 +│ 0 +│/);
    expect(renderStats(create(StatsResponseSchema, {}))).toContain('queues: JetStream did not answer');
    expect(factStatus(fact({ expiresAt: at('2026-04-01T00:00:00Z') }), NOW)).toBe('in force');
  });

  it('print --json as the response’s protobuf JSON with every field written out', () => {
    const json = JSON.parse(
      jsonDocument(
        ListFactsResponseSchema,
        create(ListFactsResponseSchema, { facts: [fact({ id: '9' })], total: 1n }),
      ),
    );
    expect(json.total).toBe('1');
    expect(json.facts[0]).toMatchObject({
      id: '9',
      supersededBy: '',
      forgetReason: '',
      accessCount: '0',
      sourceMessageIds: [],
    });
  });

  it('keep a cell on one line and cut it', () => {
    expect(cell(' a\n b\tc ')).toBe('a b c');
    expect(cell('abcdef', 4)).toBe('abc…');
  });
});
