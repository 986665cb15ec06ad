import type { Client } from 'pg';
import { factOpen } from '@engram/store';

/** One invariant of the derived data: the query returns a row per violation (at most a few, to show). */
interface Invariant {
  readonly what: string;
  readonly violations: string;
}

/**
 * What must hold once the pipeline caught up, whatever was killed on the way: every message has
 * its vector and sits under at most one leaf summary; summaries and facts point at rows that
 * exist and have vectors; every scene note became exactly one scene node; the outbox is empty.
 */
const INVARIANTS: readonly Invariant[] = [
  {
    what: 'messages without a vector',
    violations: `SELECT m.id FROM messages m
                  WHERE NOT EXISTS (SELECT 1 FROM embeddings e
                                     WHERE e.tenant_id = m.tenant_id AND e.item_kind = 'message' AND e.item_id = m.id)`,
  },
  {
    what: 'messages under more than one leaf summary',
    violations: `SELECT ss.source_id FROM summary_sources ss JOIN summaries s ON s.id = ss.summary_id
                  WHERE ss.source_kind = 'message' AND s.depth = 0
                  GROUP BY ss.source_id HAVING count(*) > 1`,
  },
  {
    what: 'summary sources that do not exist',
    violations: `SELECT ss.summary_id FROM summary_sources ss
                  WHERE (ss.source_kind = 'message' AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = ss.source_id))
                     OR (ss.source_kind = 'summary' AND NOT EXISTS (SELECT 1 FROM summaries p WHERE p.id = ss.source_id))`,
  },
  {
    what: 'summaries without a vector',
    violations: `SELECT s.id FROM summaries s
                  WHERE NOT EXISTS (SELECT 1 FROM embeddings e
                                     WHERE e.tenant_id = s.tenant_id AND e.item_kind = 'summary' AND e.item_id = s.id)`,
  },
  {
    what: 'open facts without a vector',
    violations: `SELECT f.id FROM facts f
                  WHERE ${factOpen('f')} AND NOT EXISTS (SELECT 1 FROM embeddings e
                                     WHERE e.tenant_id = f.tenant_id AND e.item_kind = 'fact' AND e.item_id = f.id)`,
  },
  {
    what: 'facts citing messages that do not exist',
    violations: `SELECT f.id FROM facts f, unnest(f.source_message_ids) AS source(id)
                  WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = source.id)`,
  },
  {
    what: 'scene notes without exactly one scene node',
    violations: `SELECT n.id FROM notes n
                  WHERE n.kind = 'scene' AND NOT n.parse_failed
                    AND (SELECT count(*) FROM memory_nodes mn
                          WHERE mn.tenant_id = n.tenant_id AND mn.source_note_id = n.id) <> 1`,
  },
  { what: 'outbox rows never published', violations: `SELECT id FROM outbox` },
];

/** The invariants that do not hold, each with how many rows break it and a few of their ids. */
export async function checkConsistency(admin: Client): Promise<string[]> {
  const problems: string[] = [];
  for (const invariant of INVARIANTS) {
    const rows = (await admin.query(invariant.violations)).rows as Array<Record<string, unknown>>;
    if (rows.length > 0)
      problems.push(
        `${invariant.what}: ${rows.length} (e.g. ${rows
          .slice(0, 5)
          .map((r) => String(Object.values(r)[0]))
          .join(', ')})`,
      );
  }
  return problems;
}
