import { z } from 'zod';

/**
 * A scene as a being writes it: what happened (`action`) and who was there (`actors`) are
 * required; when, where, what was said and sensed, and how it felt are optional. `when`
 * holds dates or, after consolidation, `{date, action}` items: the history of the scenes
 * merged into this one. A date is "YYYY-MM-DD" as a rule, but any label a being keeps time by
 * ("Day7", "2026-03", "the first snow") is kept as written: nothing computes with it.
 */
const day = z.string().trim().min(1, 'must name a day').max(100);
const line = z.string().trim().min(1).max(2000);

export const whenItem = z.union([day, z.object({ date: day, action: z.string().max(2000).default('') })]);

export const sceneSchema = z.object({
  action: line,
  actors: z.array(z.string().trim().min(1).max(200)).min(1).max(50),
  when: z.array(whenItem).max(200).default([]),
  setting: z.string().trim().max(2000).optional(),
  dialogue: z.array(z.string().max(2000)).max(50).default([]),
  sensory: z.array(z.string().max(2000)).max(50).default([]),
  feeling: z.string().trim().max(2000).optional(),
});

export type Scene = z.infer<typeof sceneSchema>;
export type WhenItem = z.infer<typeof whenItem>;

/** What marks a scene note that did not parse: it is kept, with this in front. */
export const PARSE_FAILED = '[PARSE_FAILED]';

/** A note's text as the being wrote it: without the PARSE_FAILED mark (and its space) in front. */
export function withoutParseFailed(content: string): string {
  if (!content.startsWith(PARSE_FAILED)) return content;
  const rest = content.slice(PARSE_FAILED.length);
  return rest.startsWith(' ') ? rest.slice(1) : rest;
}

export type ParsedScene = { ok: true; scene: Scene } | { ok: false; problems: string[] };

/** A scene from the JSON text a being wrote; the problems name the fields (`actors: …`). */
export function parseScene(text: string): ParsedScene {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [`not JSON: ${(error as Error).message}`] };
  }
  const parsed = sceneSchema.safeParse(json);
  if (parsed.success) return { ok: true, scene: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((i) => `${i.path.join('.') || 'scene'}: ${i.message}`),
  };
}

/**
 * A scene as the store holds it, whatever of it is there: nodes kept from before being memory
 * (migration 012) have no actors or dates, and JSON written around the RPC may lack the lists.
 * Fields of the wrong type read as absent.
 */
export function storedScene(json: unknown): Scene {
  const o = isObject(json) ? json : {};
  const when = Array.isArray(o['when']) ? o['when'] : [];
  return {
    action: typeof o['action'] === 'string' ? o['action'] : '',
    actors: strings(o['actors']),
    when: when.flatMap((item): WhenItem[] => {
      if (typeof item === 'string') return [item];
      if (isObject(item) && typeof item['date'] === 'string')
        return [{ date: item['date'], action: typeof item['action'] === 'string' ? item['action'] : '' }];
      return [];
    }),
    ...(typeof o['setting'] === 'string' && { setting: o['setting'] }),
    dialogue: strings(o['dialogue']),
    sensory: strings(o['sensory']),
    ...(typeof o['feeling'] === 'string' && { feeling: o['feeling'] }),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];

/** The date of a `when` item. */
export function dateOf(item: WhenItem): string {
  return typeof item === 'string' ? item : item.date;
}

/** `YYYY-MM-DD — setting — action — "first dialogue line" — (feeling)`, leaving out what is missing. */
export function sceneToText(scene: Scene, feeling: string | null = scene.feeling ?? null): string {
  const first = scene.when[0];
  const parts = [
    first === undefined ? undefined : dateOf(first),
    scene.setting,
    scene.action,
    scene.dialogue[0] === undefined ? undefined : `"${scene.dialogue[0]}"`,
    feeling ? `(${feeling})` : undefined,
  ];
  return parts.filter((p): p is string => p !== undefined && p !== '').join(' — ');
}

/** What a node's vector is made of: its dates, its action and its feeling. */
export function embeddingText(scene: Scene, feeling: string | null): string {
  return [...scene.when.map(dateOf), scene.action, feeling ?? ''].filter((p) => p !== '').join(' ');
}

/**
 * The survivor's `when` after absorbing others: its own items, then each absorbed scene's
 * history as `{date, action}` items (a plain date takes that scene's action; an item from an
 * earlier merge keeps its own). A scene without dates is remembered on the day it was made.
 */
export function mergedWhen(
  survivor: Scene,
  absorbed: ReadonlyArray<{ readonly scene: Scene; readonly madeOn: string }>,
): WhenItem[] {
  const history = absorbed.flatMap(({ scene, madeOn }) =>
    scene.when.length === 0
      ? [{ date: madeOn, action: scene.action }]
      : scene.when.map((item) => (typeof item === 'string' ? { date: item, action: scene.action } : item)),
  );
  return [...survivor.when, ...history];
}
