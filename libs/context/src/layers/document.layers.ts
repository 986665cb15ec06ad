import type {
  AgentProfileInput,
  CompactionInput,
  SceneInput,
  WorkspaceDocumentInput,
} from '../assembly/context-inputs';
import { fillDocument, shareFull, type LayerFill } from '../assembly/layer-fill';
import type { TokenCounter } from '../tokens/token-counter';
import { isoDay } from './day';
import { mapText, noteLine, soulText } from './scene-memory';

const minute = (at: Date) => `${at.toISOString().slice(0, 16)}Z`;

export function compactionLayer(compaction: CompactionInput | null, counter: TokenCounter): LayerFill {
  if (!compaction) return () => ({ blocks: [], cut: [], used: 0 });
  const span =
    compaction.earliestAt && compaction.latestAt
      ? ` (${minute(compaction.earliestAt)} – ${minute(compaction.latestAt)})`
      : '';
  const text = `Previous conversation summary${span}:\n${compaction.content.trim()}`;
  return (cap) =>
    fillDocument({
      layer: 'compaction',
      role: 'system',
      text,
      sourceIds: [`compaction:${compaction.id}`],
      counter,
      cap,
    });
}

/** A "## title" section of one line per item; "" for none. */
function section<T>(title: string, items: readonly T[], line: (item: T) => string): string {
  if (!items.length) return '';
  return `## ${title}\n${items.map(line).join('\n')}`;
}

/**
 * Block 1-A of a scene-memory agent: its soul (SOUL.md when it has no soul row), think notes
 * in force, enabled partner rules, user preferences, relationships, tools and the map of its
 * clusters. Nothing in it moves with the conversation, the time of day or what was read: it
 * changes when the patrol or a put changes those, so a runtime can cache it.
 */
export function personaLayer(
  agent: AgentProfileInput,
  soulDocument: WorkspaceDocumentInput | undefined,
  scene: SceneInput,
  counter: TokenCounter,
): LayerFill {
  const sourceIds: string[] = [];
  const soul = scene.soul ? soulText(scene.soul) : '';
  if (soul) sourceIds.push(`soul:${agent.agent}`);
  else if (soulDocument) sourceIds.push(`workspace:${soulDocument.name}`);
  const tools = [...agent.tools].sort();
  const map = mapText(scene.clusters);
  sourceIds.push(
    ...scene.thinkNotes.map((n) => `think:${n.id}`),
    ...scene.partnerRules.map((r) => `rule:${r.id}`),
    ...scene.preferences.map((p) => `preference:${p.key}`),
    ...scene.relationships.map((r) => `relationship:${r.person}`),
    ...tools.map((t) => `tool:${t}`),
    ...map.ids,
  );
  const parts = [
    soul ? `## Soul\n${soul}` : soulDocument ? `## Soul\n${soulDocument.content.trim()}` : '',
    section('Think notes', scene.thinkNotes, (n) => `- ${n.content.trim()}`),
    section('Partner rules', scene.partnerRules, (r) => `- ${r.rule.trim()}`),
    section('User preferences', scene.preferences, (p) => `- ${p.key.trim()}: ${p.value.trim()}`),
    section(
      'Relationships',
      scene.relationships,
      (r) =>
        `- ${[r.person, r.relation, r.notes]
          .map((x) => x.trim())
          .filter(Boolean)
          .join(' — ')}`,
    ),
    section('Tools', tools, (t) => `- ${t}`),
    map.text ? `## Map\n${map.text}` : '',
  ].filter(Boolean);
  const text = parts.join('\n\n');
  return (cap) => fillDocument({ layer: 'persona', role: 'system', text, sourceIds, counter, cap });
}

export const SNAPSHOT_ACKNOWLEDGEMENT =
  'Understood. I have my unread notes, knowledge and recent diary in mind.';

/**
 * Block 1-B: the snapshot — unread notes, TODOs and reminders (with their due times),
 * knowledge, and the diary of the last 7 days, oldest first — as a user + assistant pair.
 */
export function snapshotLayer(scene: SceneInput, asOf: Date, counter: TokenCounter): LayerFill {
  const weekAgo = isoDay(new Date(asOf.getTime() - 6 * 86_400_000));
  const diary = scene.diary.filter((d) => d.day >= weekAgo && d.day <= isoDay(asOf));
  const sourceIds = [
    ...scene.unreadNotes.map((n) => `note:${n.id}`),
    ...scene.knowledge.map((n) => `note:${n.id}`),
    ...diary.map((d) => `diary:${d.day}`),
  ];
  const parts = [
    section('Unread notes', scene.unreadNotes, noteLine),
    section('Knowledge', scene.knowledge, noteLine),
    section('Diary, last 7 days', diary, (d) => `- ${d.day}: ${d.content.trim()}`),
  ].filter(Boolean);
  if (!parts.length) return () => ({ blocks: [], cut: [], used: 0 });
  const text = `Snapshot of my memory:\n\n${parts.join('\n\n')}`;
  const ackTokens = counter.count(SNAPSHOT_ACKNOWLEDGEMENT);
  return (cap) => {
    const user = fillDocument({
      layer: 'snapshot',
      role: 'user',
      text,
      sourceIds,
      counter,
      cap: cap - ackTokens,
    });
    if (!user.blocks.length) {
      return {
        blocks: [],
        cut: [
          {
            layer: 'snapshot',
            reason: shareFull('snapshot', cap),
            tokens: counter.count(text) + ackTokens,
            sourceIds,
          },
        ],
        used: 0,
      };
    }
    return {
      blocks: [
        ...user.blocks,
        {
          role: 'assistant',
          layer: 'snapshot',
          text: SNAPSHOT_ACKNOWLEDGEMENT,
          tokens: ackTokens,
          sourceIds: [],
        },
      ],
      cut: user.cut,
      used: user.used + ackTokens,
    };
  };
}
