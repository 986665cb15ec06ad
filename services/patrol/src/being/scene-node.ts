import { sceneToText, storedScene } from '@engram/being';
import { timestampFromDate, type MessageInitShape, type SceneNodeSchema } from '@engram/contracts';
import type { MemoryNodeRow } from '@engram/store';

export type SceneNodeInit = MessageInitShape<typeof SceneNodeSchema>;

/** A node of memory_nodes as nodeColumns reads it. */
export type StoredNode = Pick<
  MemoryNodeRow,
  | 'id'
  | 'cluster_id'
  | 'scene'
  | 'feeling'
  | 'importance'
  | 'themes'
  | 'emotion'
  | 'status'
  | 'fresh'
  | 'pinned'
  | 'session_count'
  | 'reactivation_count'
  | 'last_activated'
>;

/** The columns of a node for toSceneNode, of memory_nodes under `alias` (in a RETURNING too). */
export const nodeColumns = (alias: string) =>
  ['id', 'cluster_id']
    .map((c) => `${alias}.${c}::text AS ${c}`)
    .concat(
      [
        'scene',
        'feeling',
        'importance',
        'themes',
        'emotion',
        'status',
        'fresh',
        'pinned',
        'session_count',
        'reactivation_count',
        'last_activated',
      ].map((c) => `${alias}.${c}`),
    )
    .join(', ');

const EMOTION_KEYS = ['valence', 'arousal', 'dominance', 'safety', 'novelty', 'trust'] as const;

/**
 * A node as the RPCs answer it: the stored scene's fields, its `when` as {date, action} items
 * (a plain date has no action), and its text line (sceneToText). The feeling is the node's
 * column, else the scene's own. Read leniently: rows kept from migration 010 have a scene
 * without actors, dates or dialogue.
 */
export function toSceneNode(row: StoredNode): SceneNodeInit {
  const scene = storedScene(row.scene);
  const feeling = row.feeling ?? scene.feeling ?? null;
  return {
    id: row.id,
    clusterId: row.cluster_id,
    action: scene.action,
    actors: scene.actors,
    when: scene.when.map((item) =>
      typeof item === 'string' ? { date: item, action: '' } : { date: item.date, action: item.action },
    ),
    setting: scene.setting ?? '',
    dialogue: scene.dialogue,
    sensory: scene.sensory,
    feeling: feeling ?? '',
    importance: Number(row.importance),
    themes: row.themes,
    ...(row.emotion && {
      emotion: Object.fromEntries(EMOTION_KEYS.map((k) => [k, numberOr0(row.emotion![k])])),
    }),
    status: row.status,
    fresh: row.fresh,
    pinned: row.pinned,
    sessionCount: row.session_count,
    reactivationCount: row.reactivation_count,
    ...(row.last_activated && { lastActivated: timestampFromDate(row.last_activated) }),
    text: sceneToText(scene, feeling),
  };
}

const numberOr0 = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
