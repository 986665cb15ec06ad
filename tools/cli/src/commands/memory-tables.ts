import Table from 'cli-table3';
import { toJson, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import type { Timestamp } from '@bufbuild/protobuf/wkt';
import {
  timestampDate,
  type BrowseResponse,
  type Fact,
  type FactHistory,
  type ForgetResponse,
  type ListFactsResponse,
  type ListStateResponse,
  type SaveResponse,
  type SearchResponse,
  type StatsResponse,
} from '@engram/contracts';

/** How the engram command prints what an RPC answered: a table for people, or --json for programs. */

/** Longest text shown in a table cell; the whole of it is in --json. */
export const CELL_CHARS = 100;

/** The RPC's answer as one JSON document: the protobuf JSON of the response, every field written out. */
export function jsonDocument<S extends DescMessage>(schema: S, message: MessageShape<S>): string {
  return JSON.stringify(toJson(schema, message, { alwaysEmitImplicit: true }), null, 2);
}

/** No line between rows: a list reads down, and a long one stays short. */
const COMPACT = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

/** A table without colours (stable in files and tests), one line per row. */
export function table(head: string[] = []): Table.Table {
  return new Table({ head, chars: COMPACT, style: { head: [], border: [] } });
}

/** Text on one line, cut to `max` characters with an ellipsis. */
export function cell(text: string, max = CELL_CHARS): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : line;
}

/** `2026-03-01 10:00:00` (UTC), or `—` when absent. */
export function when(at: Timestamp | undefined): string {
  return at ? timestampDate(at).toISOString().slice(0, 19).replace('T', ' ') : '—';
}

export function renderSearch(response: SearchResponse): string {
  const out = table(['#', 'score', 'ref', 'when', 'who', 'content']);
  let rank = 0;
  for (const hit of response.hits) {
    const expansion = hit.expandedFrom !== '';
    if (!expansion) rank += 1;
    const who = hit.provenance ? hit.provenance.author || hit.provenance.role || hit.provenance.agent : '';
    out.push([
      expansion ? '' : String(rank),
      expansion ? '' : hit.score.toFixed(3),
      `${expansion ? '↳ ' : ''}${hit.kind}:${hit.id}`,
      when(hit.createdAt),
      who,
      cell(hit.content),
    ]);
  }
  const lines = [response.hits.length === 0 ? 'no hits' : out.toString()];
  if (response.synthesis?.answer)
    lines.push('', `answer (${response.synthesis.model}): ${response.synthesis.answer}`);
  if (response.degraded) lines.push('', `degraded: ${response.degradedReason}`);
  return lines.join('\n');
}

export function renderBrowse(response: BrowseResponse): string {
  const out = table(['when', 'id', 'role', 'author', 'content']);
  for (const m of response.messages) {
    const content = m.content || (m.toolName ? `[${m.toolName}]` : '');
    out.push([when(m.createdAt), m.id, m.role, m.author, cell(content)]);
  }
  const lines = [response.messages.length === 0 ? 'no messages' : out.toString()];
  if (response.prevCursor) lines.push(`older: --cursor ${response.prevCursor}`);
  if (response.nextCursor) lines.push(`newer: --cursor ${response.nextCursor}`);
  return lines.join('\n');
}

export function renderStats(stats: StatsResponse): string {
  const counts = table(['memory', 'count']);
  counts.push(
    ['messages', String(stats.messages)],
    ['messages embedded', `${stats.messagesEmbedded} (${(stats.embeddingCoverage * 100).toFixed(1)} %)`],
    ['conversations compacted', String(stats.conversationsCompacted)],
    ['summary tree levels', String(stats.summaryTreeDepth)],
    ['dead letters (all tenants)', String(stats.deadLetters)],
  );
  const facts = table(['open facts, by category', 'count']);
  for (const [category, n] of Object.entries(stats.factsByCategory).sort(([a], [b]) => a.localeCompare(b)))
    facts.push([category, String(n)]);
  const lines = [counts.toString(), facts.toString()];
  if (stats.queues.length > 0) {
    const queues = table(['queue (all tenants)', 'pending', 'in flight', 'failed']);
    for (const q of stats.queues)
      queues.push([q.name, String(q.pending), String(q.inFlight), String(q.failed)]);
    lines.push(queues.toString());
  } else lines.push('queues: JetStream did not answer');
  return lines.join('\n');
}

/** In force, or why not: superseded (by which fact), forgotten, expired. */
export function factStatus(fact: Fact, now = new Date()): string {
  if (fact.supersededBy) return `superseded by ${fact.supersededBy}`;
  if (fact.validTo) return 'forgotten';
  if (fact.expiresAt && timestampDate(fact.expiresAt) <= now) return 'expired';
  return 'in force';
}

export function renderFacts(response: ListFactsResponse, offset: number, now = new Date()): string {
  if (response.facts.length === 0) return `no facts (${response.total} match)`;
  const out = table(['id', 'agent', 'category', 'imp.', 'created', 'status', 'content']);
  for (const f of response.facts)
    out.push([
      f.id,
      f.agent,
      f.category,
      String(f.importance),
      when(f.createdAt),
      factStatus(f, now),
      cell(f.content),
    ]);
  return `${out.toString()}\n${offset + 1}-${offset + response.facts.length} of ${response.total}`;
}

export function renderFactHistory(history: FactHistory, now = new Date()): string {
  const current = history.current!;
  const out = table(['event', 'fact', 'at', 'old', 'new']);
  for (const v of history.versions)
    out.push([v.event, v.fact?.id ?? '', when(v.at), cell(v.oldContent, 50), cell(v.newContent, 50)]);
  return [
    `fact ${current.id} (first version ${current.firstId}), ${factStatus(current, now)}: ${current.content}`,
    out.toString(),
  ].join('\n');
}

export function renderState(response: ListStateResponse): string {
  if (response.entries.length === 0) return 'no state';
  const out = table(['key', 'value', 'stated at', 'message']);
  for (const e of response.entries) out.push([e.key, cell(e.value), when(e.statedAt), e.sourceMessageId]);
  return out.toString();
}

export const renderSaved = (saved: SaveResponse) =>
  saved.deduplicated
    ? `already known: fact ${saved.factId} (its lifetime renewed)`
    : `saved fact ${saved.factId}`;

export const renderForgotten = (forgotten: ForgetResponse) =>
  `forgot fact ${forgotten.factId} (closed at ${when(forgotten.validTo)})`;

export function renderFact(fact: Fact, now = new Date()): string {
  return `fact ${fact.id} (first version ${fact.firstId}), ${factStatus(fact, now)}: ${fact.content}`;
}
