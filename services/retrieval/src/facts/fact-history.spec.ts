import { timestampDate, type Timestamp } from '@engram/contracts';
import { factHistory } from './fact-history';
import type { FactRecord } from './fact-records.repository';

const at = (iso: string) => new Date(iso);

function version(id: string, content: string, overrides: Partial<FactRecord> = {}): FactRecord {
  return {
    id,
    tenantId: 'acme',
    agent: 'helper',
    content,
    category: 'fact',
    lifetime: 'sticky',
    importance: 5,
    origin: 'saved',
    originKey: `saved:${id}`,
    conversationId: null,
    sourceMessageIds: [],
    validFrom: at('2026-03-01T10:00:00Z'),
    validTo: null,
    supersededBy: null,
    forgetReason: null,
    createdAt: at('2026-03-01T10:00:00Z'),
    updatedAt: at('2026-03-01T10:00:00Z'),
    expiresAt: null,
    accessCount: 0,
    lastAccessedAt: null,
    firstId: '1',
    metadata: {},
    saveKey: null,
    language: 'english',
    ...overrides,
  };
}

const steps = (chain: FactRecord[]) =>
  factHistory(chain).versions!.map((v) => [
    v.event,
    v.fact!.id,
    v.oldContent,
    v.newContent,
    timestampDate(v.at as Timestamp).toISOString(),
  ]);

describe('factHistory', () => {
  it('is one ADD for a fact nothing superseded; the fact is current', () => {
    const history = factHistory([version('1', 'Ada lives in Porto.')]);
    expect(history.current).toMatchObject({ id: '1', content: 'Ada lives in Porto.', firstId: '1' });
    expect(steps([version('1', 'Ada lives in Porto.')])).toEqual([
      ['ADD', '1', '', 'Ada lives in Porto.', '2026-03-01T10:00:00.000Z'],
    ]);
  });

  it('adds an UPDATE with old and new text for each version, and a DELETE when the last was forgotten', () => {
    const chain = [
      version('1', 'Ada lives in Porto.', { validTo: at('2026-03-02T09:00:00Z'), supersededBy: '4' }),
      version('4', 'Ada lives in Lisbon.', {
        createdAt: at('2026-03-02T09:00:00Z'),
        validTo: at('2026-03-05T12:00:00Z'),
        supersededBy: '9',
      }),
      version('9', 'Ada lives in Lisbon, near the river.', {
        createdAt: at('2026-03-05T12:00:00Z'),
        validTo: at('2026-03-07T08:30:00Z'),
        forgetReason: 'asked to forget',
      }),
    ];
    expect(steps(chain)).toEqual([
      ['ADD', '1', '', 'Ada lives in Porto.', '2026-03-01T10:00:00.000Z'],
      ['UPDATE', '4', 'Ada lives in Porto.', 'Ada lives in Lisbon.', '2026-03-02T09:00:00.000Z'],
      [
        'UPDATE',
        '9',
        'Ada lives in Lisbon.',
        'Ada lives in Lisbon, near the river.',
        '2026-03-05T12:00:00.000Z',
      ],
      ['DELETE', '9', 'Ada lives in Lisbon, near the river.', '', '2026-03-07T08:30:00.000Z'],
    ]);
    expect(factHistory(chain).current).toMatchObject({ id: '9', forgetReason: 'asked to forget' });
    expect(factHistory(chain).current!.validTo).toBeDefined();
  });

  it('has no DELETE while the last version is open', () => {
    const chain = [
      version('1', 'Ada lives in Porto.', { validTo: at('2026-03-02T09:00:00Z'), supersededBy: '4' }),
      version('4', 'Ada lives in Lisbon.'),
    ];
    expect(steps(chain).map(([event]) => event)).toEqual(['ADD', 'UPDATE']);
    expect(factHistory(chain).current).toMatchObject({ id: '4', validTo: undefined });
  });
});
