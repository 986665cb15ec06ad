import {
  timestampDate,
  type BeingRecallResponse,
  type BrowseResponse,
  type ContextBuildResponse,
  type SceneNode,
  type SearchHit,
  type SearchResponse,
  type StatsResponse,
  type Timestamp,
  type TranscriptMessage,
} from '@engram/contracts';

/**
 * What the tools answer, as text an assistant reads: one line per item, its ref first
 * (`[message:12]`, `[fact:6]`, `[node:3]`) so it can be passed to another tool, then its score,
 * time and who, then its content. Long contents are cut; the structured answer has them whole.
 */

/** Most characters of one item's content shown in text; the rest is counted, not shown. */
export const SHOWN_CONTENT_CHARS = 2000;

/** A moment as "2024-05-01 14:03" (UTC), or "" when there is none. */
export function when(at: Timestamp | undefined): string {
  return at ? timestampDate(at).toISOString().slice(0, 16).replace('T', ' ') : '';
}

/** Text on one line, cut at `max` characters with how much more there was. */
export function cut(text: string, max = SHOWN_CONTENT_CHARS): string {
  const oneLine = text.replace(/\s*\n\s*/g, ' ⏎ ').trim();
  const chars = [...oneLine];
  return chars.length <= max
    ? oneLine
    : `${chars.slice(0, max).join('')}… (${chars.length - max} more characters)`;
}

/** `a · b · c`, leaving out what is empty. */
const joined = (...parts: Array<string | undefined | false>) => parts.filter(Boolean).join(' · ');

/** Who said a hit or message: "user (Ada)", "assistant", "fact". */
function speaker(role: string, author: string): string {
  return author ? `${role || 'someone'} (${author})` : role;
}

/** One search hit: `[fact:6] 0.82 · 2024-05-01 14:03 · user (Ada) · conversation 3 — content`. */
export function hitLine(hit: SearchHit): string {
  const p = hit.provenance;
  const who = hit.kind === 'message' ? speaker(p?.role ?? '', p?.author ?? '') : hit.kind;
  const summary = hit.kind === 'summary' ? `summary (depth ${p?.depth ?? 0})` : '';
  return `[${hit.kind}:${hit.id}] ${joined(
    hit.score ? hit.score.toFixed(2) : '',
    when(hit.createdAt),
    summary || who,
    p?.conversationId && `conversation ${p.conversationId}`,
  )} — ${cut(hit.content)}`;
}

/** memory_search's answer: numbered hits best first, expansions under their hit, then the synthesis and any degradation. */
export function renderSearch(response: SearchResponse, query: string): string {
  const lines: string[] = [];
  if (response.hits.length === 0) lines.push(`No memory matches ${JSON.stringify(cut(query, 200))}.`);
  else
    lines.push(
      `${response.hits.length} item${response.hits.length === 1 ? '' : 's'} for ${JSON.stringify(cut(query, 200))}, best first (refs in brackets):`,
    );
  let rank = 0;
  for (const hit of response.hits)
    lines.push(
      hit.expandedFrom ? `   ↳ from ${hit.expandedFrom}: ${hitLine(hit)}` : `${++rank}. ${hitLine(hit)}`,
    );
  if (response.synthesis?.answer)
    lines.push('', `Answer from these memories (${response.synthesis.model}): ${response.synthesis.answer}`);
  if (response.degraded) lines.push('', `Note: ${response.degradedReason || 'the answer is degraded'}.`);
  return lines.join('\n');
}

/** One transcript message: `[message:12] 2024-05-01 14:03 · user (Ada) — content`. */
export function messageLine(message: TranscriptMessage): string {
  const tool = message.toolName ? `tool ${message.toolName}` : '';
  return `[message:${message.id}] ${joined(when(message.createdAt), speaker(message.role, message.author), tool)} — ${cut(message.content)}`;
}

/** memory_browse's answer: the page oldest first, and how to read on. */
export function renderTranscript(response: BrowseResponse): string {
  if (response.messages.length === 0) return 'No messages here.';
  const conversations = [...new Set(response.messages.map((m) => m.conversationId))];
  const lines = [
    `${response.messages.length} message${response.messages.length === 1 ? '' : 's'}, oldest first (conversation ${conversations.join(', ')}):`,
    ...response.messages.map(messageLine),
  ];
  if (response.prevCursor) lines.push(`Older messages: cursor ${JSON.stringify(response.prevCursor)}`);
  if (response.nextCursor) lines.push(`Newer messages: cursor ${JSON.stringify(response.nextCursor)}`);
  return lines.join('\n');
}

/** memory_stats's answer: what is stored and how far the workers are. */
export function renderStats(stats: StatsResponse, agent: string): string {
  const facts = Object.entries(stats.factsByCategory)
    .filter(([, n]) => n > 0n)
    .map(([category, n]) => `${category} ${n}`);
  const unsummarised = Object.values(stats.unsummarisedByConversation).reduce((sum, n) => sum + n, 0n);
  const busy = stats.queues.filter((q) => q.pending > 0n || q.inFlight > 0n || q.failed > 0n);
  return [
    `Memory of agent ${agent}:`,
    `- ${stats.messages} messages, ${Math.round(stats.embeddingCoverage * 100)} % embedded (${stats.messagesEmbedded})`,
    `- open facts: ${facts.length > 0 ? facts.join(', ') : 'none'}`,
    `- summaries: ${stats.conversationsCompacted} conversations summarised, tree depth ${stats.summaryTreeDepth}, ${unsummarised} messages not yet in a summary`,
    `- workers (all tenants): ${
      busy.length === 0
        ? 'all queues empty'
        : busy
            .map((q) => `${q.name} ${q.pending} pending, ${q.inFlight} in flight, ${q.failed} failed`)
            .join('; ')
    }; ${stats.deadLetters} dead letters`,
  ].join('\n');
}

/** context_build's answer: the prompt, block by block, in the order to send it. */
export function renderContext(context: ContextBuildResponse): string {
  const layers = [...new Set(context.blocks.map((b) => b.layer))].join(', ');
  const lines = [
    `Prompt for model ${context.model}: ${context.totalTokens} of ${context.ceilingTokens} tokens${
      context.exactTokens ? '' : ' (estimated)'
    }; layers ${layers || 'none'}. Send these blocks in order, then the current message.`,
  ];
  if (context.degraded) lines.push(`Note: ${context.degradedReason || 'the prompt is degraded'}.`);
  for (const cutLayer of context.cut)
    lines.push(`Left out of ${cutLayer.layer}: ${cutLayer.reason} (${cutLayer.tokens} tokens).`);
  for (const block of context.blocks)
    lines.push('', `--- ${block.role} · ${block.layer} · ${block.tokens} tokens ---`, block.text);
  return lines.join('\n');
}

/** One scene: `[node:3] active · cluster 2 · 2024-05-01 — kitchen — baked bread — "…" — (warm)`. */
export function sceneLine(node: SceneNode): string {
  return `[node:${node.id}] ${joined(
    node.status,
    node.pinned && 'pinned',
    `cluster ${node.clusterId}`,
    `importance ${node.importance.toFixed(2)}`,
  )} — ${cut(node.text || node.action)}`;
}

/** Scenes one per line, or what to say when there are none. */
export function renderScenes(nodes: readonly SceneNode[], none: string): string {
  if (nodes.length === 0) return none;
  return [`${nodes.length} scene${nodes.length === 1 ? '' : 's'}:`, ...nodes.map(sceneLine)].join('\n');
}

/** recall's answer: the memory tag to keep in mind, then the scenes it came from. */
export function renderRecall(recall: BeingRecallResponse): string {
  if (!recall.text) return 'Nothing comes back: no scene is similar enough to this message.';
  return [recall.text, '', renderScenes(recall.nodes, '')].join('\n');
}
