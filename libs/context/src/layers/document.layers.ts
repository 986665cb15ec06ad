import type {
  AgentProfileInput,
  CompactionInput,
  SceneInput,
  SceneNoteInput,
  WorkspaceDocumentInput,
} from '../assembly/context-inputs';
import { fillDocument, shareFull, type LayerFill } from '../assembly/layer-fill';
import type { TokenCounter } from '../tokens/token-counter';
import { isoDay } from './day';

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

function section(title: string, notes: readonly SceneNoteInput[], ids: string[]): string {
  if (!notes.length) return '';
  ids.push(...notes.map((n) => `note:${n.id}`));
  return `## ${title}\n${notes.map((n) => `- ${n.day ? `${n.day}: ` : ''}${n.content.trim()}`).join('\n')}`;
}

/**
 * Block 1-A of a scene-memory agent: soul, think notes, partner rules, preferences,
 * relationships, tools and map. It changes only when those do, so a runtime can cache it.
 */
export function personaLayer(
  agent: AgentProfileInput,
  soul: WorkspaceDocumentInput | undefined,
  scene: SceneInput,
  counter: TokenCounter,
): LayerFill {
  const sourceIds: string[] = soul ? [`workspace:${soul.name}`] : [];
  const tools = agent.tools.length
    ? `## Tools\n${[...agent.tools]
        .sort()
        .map((t) => `- ${t}`)
        .join('\n')}`
    : '';
  if (tools) sourceIds.push(...[...agent.tools].sort().map((t) => `tool:${t}`));
  const parts = [
    soul ? `## Soul\n${soul.content.trim()}` : '',
    section('Think notes', scene.thinkNotes, sourceIds),
    section('Partner rules', scene.partnerRules, sourceIds),
    section('Preferences', scene.preferences, sourceIds),
    section('Relationships', scene.relationships, sourceIds),
    tools,
    section('Map', scene.map, sourceIds),
  ].filter(Boolean);
  const text = parts.join('\n\n');
  return (cap) => fillDocument({ layer: 'persona', role: 'system', text, sourceIds, counter, cap });
}

export const SNAPSHOT_ACKNOWLEDGEMENT =
  'Understood. I have my unread notes, knowledge and recent diary in mind.';

/** Block 1-B: the snapshot (unread notes, knowledge, the last 7 days of diary) as a user + assistant pair. */
export function snapshotLayer(scene: SceneInput, now: Date, counter: TokenCounter): LayerFill {
  const sourceIds: string[] = [];
  const weekAgo = isoDay(new Date(now.getTime() - 6 * 86_400_000));
  const diary = scene.diary.filter((d) => !d.day || d.day >= weekAgo);
  const parts = [
    section('Unread notes', scene.unreadNotes, sourceIds),
    section('Knowledge', scene.knowledge, sourceIds),
    section('Diary, last 7 days', diary, sourceIds),
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
