import { create } from '@bufbuild/protobuf';
import { SearchResponseSchema, StatsResponseSchema, timestampFromDate } from '@engram/contracts';
import { cut, renderSearch, renderStats, SHOWN_CONTENT_CHARS, when } from './render';
import { argumentName } from './tool-result';

describe('cut', () => {
  it('keeps short text whole, on one line', () => {
    expect(cut('Hi!\n\n  Please use metric units.')).toBe('Hi! ⏎ Please use metric units.');
  });

  it('cuts long text at the limit in characters and says how much more there was', () => {
    const emoji = '🙂'.repeat(SHOWN_CONTENT_CHARS + 5);
    expect(cut(emoji)).toBe(`${'🙂'.repeat(SHOWN_CONTENT_CHARS)}… (5 more characters)`);
  });
});

describe('when', () => {
  it('shows a moment to the minute in UTC, and nothing for no moment', () => {
    expect(when(timestampFromDate(new Date('2024-05-01T14:03:59.900Z')))).toBe('2024-05-01 14:03');
    expect(when(undefined)).toBe('');
  });
});

describe('renderSearch', () => {
  it('says nothing matched, and gives the synthesis after the items when there is one', () => {
    expect(renderSearch(create(SearchResponseSchema, {}), 'tea')).toBe('No memory matches "tea".');
    const answered = create(SearchResponseSchema, {
      hits: [
        { id: '45', kind: 'summary', content: 'Ada ordered tea.', score: 0.5, provenance: { depth: 1 } },
      ],
      synthesis: {
        answer: 'Ada ordered tea [summary:45].',
        citedIds: ['summary:45'],
        model: 'engram-local-rules-v1',
      },
    });
    expect(renderSearch(answered, 'what did Ada order?')).toBe(
      [
        '1 item for "what did Ada order?", best first (refs in brackets):',
        '1. [summary:45] 0.50 · summary (depth 1) — Ada ordered tea.',
        '',
        'Answer from these memories (engram-local-rules-v1): Ada ordered tea [summary:45].',
      ].join('\n'),
    );
  });
});

describe('renderStats', () => {
  it('counts what is stored and names only the queues with work', () => {
    const stats = create(StatsResponseSchema, {
      messages: 200n,
      messagesEmbedded: 150n,
      embeddingCoverage: 0.75,
      factsByCategory: { preference: 2n, fact: 0n, task: 1n },
      unsummarisedByConversation: { '3': 12n, '4': 3n },
      conversationsCompacted: 2n,
      summaryTreeDepth: 1,
      queues: [
        { name: 'ingest-turns', pending: 0n, inFlight: 0n, failed: 0n },
        { name: 'embedder-messages', pending: 50n, inFlight: 4n, failed: 0n },
      ],
      deadLetters: 1n,
    });
    expect(renderStats(stats, 'support-bot')).toBe(
      [
        'Memory of agent support-bot:',
        '- 200 messages, 75 % embedded (150)',
        '- open facts: preference 2, task 1',
        '- summaries: 2 conversations summarised, tree depth 1, 15 messages not yet in a summary',
        '- workers (all tenants): embedder-messages 50 pending, 4 in flight, 0 failed; 1 dead letters',
      ].join('\n'),
    );
  });
});

describe('argumentName', () => {
  const args = ['query', 'conversationId', 'kinds', 'sourceMessageIds'];

  it("names a field of the RPC's request by the tool's argument that carries it", () => {
    expect(argumentName('query', args)).toBe('query');
    expect(argumentName('filters.conversationId', args)).toBe('conversationId');
    expect(argumentName('filters.kinds[1]', args)).toBe('kinds[1]');
  });

  it('keeps a field no argument carries as the RPC named it', () => {
    expect(argumentName('refs[0]', args)).toBe('refs[0]');
    expect(argumentName('filters.to', args)).toBe('filters.to');
  });
});
