import { Injectable } from '@nestjs/common';
import {
  itemsStatement,
  NEIGHBOUR_SETTINGS,
  neighboursStatement,
  type ItemKind,
  type ItemRow,
  type NeighbourRow,
  type Statement,
} from '@engram/search';
import type { EntityManager } from '@engram/store';
import { statementRunner } from '../statement-runner';
import type { ItemKey, ExpansionLinks } from './expand-order';

interface LinkRow {
  readonly parent_id: string;
  readonly kind: ItemKind;
  readonly id: string;
}

/**
 * The reads of an expansion, one statement per kind of hop, in the caller's tenant transaction
 * (row-level security hides other tenants' rows: their ids lead nowhere and have no item).
 * A message's neighbours and the items themselves are read by the same statements as
 * memory_search's (libs/search), so the two show an item and its context alike.
 */
@Injectable()
export class ExpandRepository {
  /** Where the asked summaries, messages and facts lead (depth: levels below a summary). */
  async links(
    manager: EntityManager,
    tenantId: string,
    asked: readonly ItemKey[],
    depth: number,
  ): Promise<ExpansionLinks> {
    const ids = (kind: ItemKind) => [...new Set(asked.filter((a) => a.kind === kind).map((a) => a.id))];
    const [summaries, messages, facts] = [ids('summary'), ids('message'), ids('fact')];
    const run = statementRunner(manager);
    const children = summaries.length > 0 ? await run<LinkRow>(subtrees(summaries, depth)) : [];
    const factLinks = facts.length > 0 ? await run<LinkRow>(factSourcesAndSuccessors(facts)) : [];
    if (messages.length > 0) await run(NEIGHBOUR_SETTINGS);
    const around =
      messages.length > 0
        ? await run<NeighbourRow>(
            neighboursStatement({ tenantId, kinds: ['message'] }, messages, [], null, null),
          )
        : [];
    return { children: byParent(children), factLinks: byParent(factLinks), neighbours: windows(around) };
  }

  /** Content and provenance of the items; an id the tenant does not hold has no row. */
  async items(manager: EntityManager, tenantId: string, items: readonly ItemKey[]): Promise<ItemRow[]> {
    const refs: Record<ItemKind, string[]> = { message: [], summary: [], fact: [] };
    for (const item of items) refs[item.kind].push(item.id);
    const run = statementRunner(manager);
    return run<ItemRow>(itemsStatement(tenantId, refs));
  }
}

/**
 * The summaries' subtrees down to `depth` levels, as links parent → child in the order of
 * summary_sources.ordinal (read by its primary key, summary_id first). A summary asked
 * under another asked one is walked from both: the caller keeps each link once.
 */
function subtrees(summaryIds: readonly string[], depth: number): Statement {
  return {
    text: `
      WITH RECURSIVE tree AS (
        SELECT ss.summary_id, ss.source_kind, ss.source_id, ss.ordinal, 1 AS level
          FROM summary_sources ss WHERE ss.summary_id = ANY($1::bigint[])
        UNION ALL
        SELECT ss.summary_id, ss.source_kind, ss.source_id, ss.ordinal, t.level + 1
          FROM tree t JOIN summary_sources ss ON ss.summary_id = t.source_id
         WHERE t.source_kind = 'summary' AND t.level < $2
      )
      SELECT DISTINCT summary_id::text AS parent_id, source_kind AS kind, source_id::text AS id, ordinal
        FROM tree
       ORDER BY parent_id, ordinal`,
    values: [summaryIds, depth],
  };
}

/**
 * Each fact's source messages in the conversation's order, then the fact that superseded
 * it; sources the tenant does not hold (never written, another tenant's) are left out.
 */
function factSourcesAndSuccessors(factIds: readonly string[]): Statement {
  return {
    text: `
      SELECT parent_id, kind, id FROM (
        SELECT f.id::text AS parent_id, 'message' AS kind, m.id::text AS id, 0 AS part,
               m.created_at, m.stream_seq, m.position, m.id AS tie
          FROM facts f JOIN messages m ON m.id = ANY(f.source_message_ids)
         WHERE f.id = ANY($1::bigint[])
        UNION ALL
        SELECT f.id::text, 'fact', n.id::text, 1, NULL, NULL, NULL, NULL
          FROM facts f JOIN facts n ON n.id = f.superseded_by
         WHERE f.id = ANY($1::bigint[])
      ) links
      ORDER BY parent_id, part, created_at, stream_seq, position, tie`,
    values: [factIds],
  };
}

function byParent(rows: readonly LinkRow[]): Map<string, ItemKey[]> {
  const links = new Map<string, ItemKey[]>();
  for (const row of rows) {
    const list = links.get(String(row.parent_id)) ?? [];
    list.push({ kind: row.kind, id: String(row.id) });
    links.set(String(row.parent_id), list);
  }
  return links;
}

/** The neighbours statement's rows (offsets −2, −1, 1, 2 around each seed) as windows in order. */
function windows(rows: readonly NeighbourRow[]): ExpansionLinks['neighbours'] {
  const bySeed = new Map<string, { before: string[]; after: string[] }>();
  for (const row of [...rows].sort((a, b) => a.offset - b.offset)) {
    const window = bySeed.get(String(row.seed)) ?? { before: [], after: [] };
    (row.offset < 0 ? window.before : window.after).push(String(row.id));
    bySeed.set(String(row.seed), window);
  }
  return bySeed;
}
