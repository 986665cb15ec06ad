import { actAsTenant, createDataSource } from '@engram/store';

/** A summary as stored, with its child summaries' ids in order (none for a leaf). */
export interface StoredSummary {
  readonly id: string;
  readonly depth: number;
  readonly content: string;
  readonly earliestAt: Date;
  readonly latestAt: Date;
  readonly messageCount: number;
  readonly model: string;
  readonly childIds: readonly string[];
}

export interface SummaryNode extends Omit<StoredSummary, 'childIds'> {
  readonly kind: 'leaf' | 'branch' | 'root';
  readonly children: readonly SummaryNode[];
}

export interface ConversationTree {
  readonly conversationId: string;
  readonly agent: string;
  readonly sessionKey: string;
  readonly messages: number;
  /** Messages under no leaf yet. */
  readonly unsummarised: number;
  /** Top-level nodes (under no parent), oldest first: roots, and branches or leaves still waiting for one. */
  readonly roots: readonly SummaryNode[];
}

const KINDS = ['leaf', 'branch', 'root'] as const;

/** Links summaries into trees: every summary under no parent is a top-level node, oldest first. */
export function buildTree(summaries: readonly StoredSummary[]): SummaryNode[] {
  const byId = new Map(summaries.map((s) => [s.id, s]));
  const children = new Set(summaries.flatMap((s) => s.childIds));
  const node = (s: StoredSummary): SummaryNode => {
    const { childIds, ...rest } = s;
    return {
      ...rest,
      kind: KINDS[s.depth] ?? 'root',
      children: childIds.flatMap((id) => (byId.has(id) ? [node(byId.get(id)!)] : [])),
    };
  };
  return summaries
    .filter((s) => !children.has(s.id))
    .sort((a, b) => a.earliestAt.getTime() - b.earliestAt.getTime() || Number(BigInt(a.id) - BigInt(b.id)))
    .map(node);
}

/** ISO time to the minute, in UTC. */
export function isoMinute(at: Date): string {
  return `${at.toISOString().slice(0, 16)}Z`;
}

/** A summary's text on one line, cut to `chars` (whole text with `chars` undefined). */
export function excerpt(content: string, chars: number | undefined): string {
  const flat = content.replace(/\s+/g, ' ').trim();
  if (chars === undefined || flat.length <= chars) return flat;
  return `${flat.slice(0, chars).trimEnd()}…`;
}

/** The tree as text: a header, then each node indented by its level, with its span, count, model and (part of) its summary. */
export function renderTree(
  tree: ConversationTree,
  options: { full?: boolean; excerptChars?: number } = {},
): string {
  const chars = options.full ? undefined : (options.excerptChars ?? 200);
  const count = (kind: SummaryNode['kind']) => {
    let n = 0;
    const walk = (nodes: readonly SummaryNode[]) =>
      nodes.forEach((x) => ((n += x.kind === kind ? 1 : 0), walk(x.children)));
    walk(tree.roots);
    return n;
  };
  const lines = [
    `conversation ${tree.conversationId} (agent ${tree.agent}, session ${tree.sessionKey}): ${tree.messages} messages, ` +
      `${count('root')} roots, ${count('branch')} branches, ${count('leaf')} leaves; ${tree.unsummarised} messages under no leaf yet`,
  ];
  if (tree.roots.length === 0) lines.push('(no summaries yet)');
  const walk = (nodes: readonly SummaryNode[], level: number) => {
    for (const n of nodes) {
      const pad = '  '.repeat(level);
      lines.push(
        `${pad}${n.kind} #${n.id} depth ${n.depth} · ${isoMinute(n.earliestAt)} – ${isoMinute(n.latestAt)} · ${n.messageCount} messages · ${n.model}`,
      );
      lines.push(`${pad}  │ ${excerpt(n.content, chars)}`);
      walk(n.children, level + 1);
    }
  };
  walk(tree.roots, 0);
  return lines.join('\n');
}

/** The tree as JSON (times as ISO text). */
export function treeJson(tree: ConversationTree): unknown {
  const node = (n: SummaryNode): unknown => ({
    id: n.id,
    kind: n.kind,
    depth: n.depth,
    earliestAt: n.earliestAt.toISOString(),
    latestAt: n.latestAt.toISOString(),
    messageCount: n.messageCount,
    model: n.model,
    content: n.content,
    children: n.children.map(node),
  });
  return { ...tree, roots: tree.roots.map(node) };
}

export type ConversationRef =
  { readonly conversationId: string } | { readonly sessionKey: string; readonly agent: string };

/** Reads a conversation's summary tree under the tenant's isolation; null when the tenant has no such conversation. */
export async function readSummaryTree(
  databaseUrl: string,
  tenantId: string,
  ref: ConversationRef,
): Promise<ConversationTree | null> {
  const dataSource = createDataSource(databaseUrl, { poolSize: 1, applicationName: 'engram-cli' });
  await dataSource.initialize();
  try {
    return await dataSource.transaction(async (m) => {
      await actAsTenant(m, tenantId);
      const found: Array<{ id: string; agent: string; session_key: string }> =
        'conversationId' in ref
          ? await m.query(`SELECT id::text, agent, session_key FROM conversations WHERE id = $1`, [
              ref.conversationId,
            ])
          : await m.query(
              `SELECT id::text, agent, session_key FROM conversations WHERE agent = $1 AND session_key = $2`,
              [ref.agent, ref.sessionKey],
            );
      const conversation = found[0];
      if (!conversation) return null;
      const rows: Array<{
        id: string;
        depth: number;
        content: string;
        earliest_at: Date;
        latest_at: Date;
        message_count: number;
        model: string;
        child_ids: string[];
      }> = await m.query(
        `SELECT s.id::text, s.depth, s.content, s.earliest_at, s.latest_at, s.message_count, s.model,
                  coalesce(array_agg(ss.source_id::text ORDER BY ss.ordinal) FILTER (WHERE ss.source_kind = 'summary'), '{}') AS child_ids
             FROM summaries s LEFT JOIN summary_sources ss ON ss.summary_id = s.id
            WHERE s.conversation_id = $1
            GROUP BY s.id`,
        [conversation.id],
      );
      const [counts] = await m.query(
        `SELECT count(*)::int AS messages,
                count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM summary_sources ss WHERE ss.source_kind = 'message' AND ss.source_id = m.id))::int AS unsummarised
           FROM messages m WHERE m.conversation_id = $1`,
        [conversation.id],
      );
      return {
        conversationId: conversation.id,
        agent: conversation.agent,
        sessionKey: conversation.session_key,
        messages: counts.messages,
        unsummarised: counts.unsummarised,
        roots: buildTree(
          rows.map((r) => ({
            id: r.id,
            depth: r.depth,
            content: r.content,
            earliestAt: r.earliest_at,
            latestAt: r.latest_at,
            messageCount: r.message_count,
            model: r.model,
            childIds: r.child_ids,
          })),
        ),
      };
    });
  } finally {
    await dataSource.destroy();
  }
}
