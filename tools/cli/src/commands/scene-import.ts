import type { AddSceneRequestSchema, AddSceneResponse, MessageInitShape } from '@engram/contracts';
import { RpcError } from '@engram/messaging';

export type SceneRequest = MessageInitShape<typeof AddSceneRequestSchema>;

/** What one JSONL line asks for: nothing (blank), a request, or a line refused before sending. */
export type SceneLine =
  | { readonly kind: 'blank' }
  | { readonly kind: 'request'; readonly request: SceneRequest }
  | { readonly kind: 'refused'; readonly problems: string[] };

const EMOTION_KEYS = ['valence', 'arousal', 'dominance', 'safety', 'novelty', 'trust'] as const;
const WRAPPER_KEYS = ['scene', 'importance', 'themes', 'emotion'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One line of a scene-note JSONL file as a mem.rpc.being.scenes.add request. A line is either
 * a scene itself (sent as written: the service parses it, and keeps what does not parse,
 * marked [PARSE_FAILED]) or an object with `scene` (an object, or the scene's JSON text) and
 * optionally `importance`, `themes` and `emotion`. Only what the request cannot carry — a
 * wrapper field of the wrong type, or one it does not know — is refused here.
 */
export function sceneLine(agent: string, line: string): SceneLine {
  const text = line.trim();
  if (text === '') return { kind: 'blank' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!isObject(json) || !('scene' in json)) return { kind: 'request', request: { agent, scene: text } };

  const problems: string[] = [];
  const unknown = Object.keys(json).filter((k) => !WRAPPER_KEYS.includes(k));
  if (unknown.length)
    problems.push(`unknown field(s) ${unknown.join(', ')}: only ${WRAPPER_KEYS.join(', ')}`);
  const { scene, importance, themes, emotion } = json;
  if (!(typeof scene === 'string' || isObject(scene)))
    problems.push('scene must be a scene object or its JSON text');
  if (importance !== undefined && (typeof importance !== 'number' || !Number.isFinite(importance)))
    problems.push('importance must be a number');
  if (themes !== undefined && !(Array.isArray(themes) && themes.every((t) => typeof t === 'string')))
    problems.push('themes must be a list of strings');
  if (emotion !== undefined) {
    if (!isObject(emotion)) problems.push(`emotion must be an object of ${EMOTION_KEYS.join(', ')}`);
    else
      for (const [key, value] of Object.entries(emotion)) {
        if (!(EMOTION_KEYS as readonly string[]).includes(key))
          problems.push(`emotion.${key} is not one of ${EMOTION_KEYS.join(', ')}`);
        else if (typeof value !== 'number') problems.push(`emotion.${key} must be a number`);
      }
  }
  if (problems.length) return { kind: 'refused', problems };
  return {
    kind: 'request',
    request: {
      agent,
      scene: typeof scene === 'string' ? scene : JSON.stringify(scene),
      ...(importance !== undefined && { importance: importance as number }),
      ...(themes !== undefined && { themes: themes as string[] }),
      ...(emotion !== undefined && { emotion: emotion as Record<(typeof EMOTION_KEYS)[number], number> }),
    },
  };
}

export interface LineOutcome {
  readonly line: number;
  /** Why: the parse problems of a kept scene, or the field violations of a refused line. */
  readonly problems: string[];
}

export interface SceneImportResult {
  readonly stored: number;
  /** Kept by the service, marked [PARSE_FAILED]. */
  readonly parseFailed: LineOutcome[];
  /** Refused: INVALID_ARGUMENT from the service, or a line the request cannot carry. */
  readonly refused: LineOutcome[];
}

/** "field: description" for each field violation of an INVALID_ARGUMENT, else its message. */
export function violationsOf(error: RpcError): string[] {
  const violations = error.details['fieldViolations'];
  if (Array.isArray(violations) && violations.length) {
    return violations.map((v: { field?: string; description?: string }) =>
      v.field ? `${v.field}: ${v.description ?? 'invalid'}` : (v.description ?? 'invalid'),
    );
  }
  return [error.message];
}

/**
 * Sends each line (numbered from 1) with `send`, in order, and sorts the outcomes. An
 * INVALID_ARGUMENT refuses that line and the import goes on; any other error (the service
 * unreachable or failing) stops it, thrown with the line it stopped at.
 */
export async function importSceneLines(
  agent: string,
  lines: AsyncIterable<string> | Iterable<string>,
  send: (request: SceneRequest) => Promise<Pick<AddSceneResponse, 'parseFailed' | 'problems'>>,
): Promise<SceneImportResult> {
  let stored = 0;
  const parseFailed: LineOutcome[] = [];
  const refused: LineOutcome[] = [];
  let line = 0;
  for await (const text of lines) {
    line += 1;
    const parsed = sceneLine(agent, text);
    if (parsed.kind === 'blank') continue;
    if (parsed.kind === 'refused') {
      refused.push({ line, problems: parsed.problems });
      continue;
    }
    try {
      const reply = await send(parsed.request);
      if (reply.parseFailed) parseFailed.push({ line, problems: [...reply.problems] });
      else stored += 1;
    } catch (error) {
      if (error instanceof RpcError && error.code === 'INVALID_ARGUMENT') {
        refused.push({ line, problems: violationsOf(error) });
        continue;
      }
      throw new SceneImportStopped(line, { stored, parseFailed, refused }, error);
    }
  }
  return { stored, parseFailed, refused };
}

/** The import stopped at a line (the service unreachable or failing); lines before it were sent. */
export class SceneImportStopped extends Error {
  override readonly name = 'SceneImportStopped';
  constructor(
    readonly line: number,
    readonly sofar: SceneImportResult,
    override readonly cause: unknown,
  ) {
    super(
      `stopped at line ${line}: ${cause instanceof Error ? cause.message : String(cause)} (the lines before it were sent)`,
    );
  }
}
