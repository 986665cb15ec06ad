import safeRegex from 'safe-regex2';
import { parseDocument } from 'yaml';

/** A skill as stored: its triggers decide when its body goes into the prompt. */
export interface SkillDefinition {
  readonly name: string;
  readonly description: string | null;
  /** Matched as words, case-insensitively. Trimmed, distinct, in file order. */
  readonly keywords: string[];
  /** JavaScript regular expressions, matched case-insensitively. */
  readonly patterns: string[];
  /** The markdown after the front matter, trimmed. */
  readonly body: string;
  /** The whole file as given. */
  readonly source: string;
}

/** A skill file that cannot be used, naming the file and what is wrong with it. */
export class SkillFileError extends Error {
  override readonly name = 'SkillFileError';
  constructor(
    readonly fileName: string,
    readonly problem: string,
  ) {
    super(`${fileName}: ${problem}`);
  }
}

export const MAX_SKILL_NAME_CHARS = 200;
export const MAX_SKILL_PATTERN_CHARS = 500;

/** `---` on the first line, the YAML, `---` on a line of its own; an empty block is allowed. */
const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;
const TRIGGER_KEYS = ['keywords', 'patterns'];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const kindOf = (value: unknown) =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'a list'
      : `${/^[aeiou]/.test(typeof value) ? 'an' : 'a'} ${typeof value}`;

/**
 * Reads a skill file: markdown with YAML front matter
 *
 * ```
 * ---
 * name: deploy            # default: the file name without .md
 * description: Ship a release
 * triggers:
 *   keywords: [deploy, release]
 *   patterns: ["roll ?back"]
 * ---
 * How to deploy …
 * ```
 *
 * A file without front matter is a skill with no triggers. Invalid YAML, a field of the
 * wrong type, an unknown key under `triggers`, or a pattern that is not a valid (or is
 * a catastrophically backtracking) regular expression throws a SkillFileError naming
 * the file and the problem.
 */
export function parseSkillFile(fileName: string, markdown: string): SkillDefinition {
  const fail = (problem: string): never => {
    throw new SkillFileError(fileName, problem);
  };
  let meta: Record<string, unknown> = {};
  let body = markdown;
  const block = FRONT_MATTER.exec(markdown);
  if (block) {
    body = markdown.slice(block[0].length);
    const document = parseDocument(block[1] ?? '', { prettyErrors: true, uniqueKeys: true });
    const error = document.errors[0];
    if (error) {
      // Lines counted in the file (the front matter starts on its second line), without yaml's code excerpt.
      const first = error.message
        .split('\n')[0]!
        .replace(
          / at line (\d+), column (\d+):?$/,
          (_, line: string, column: string) => ` at line ${Number(line) + 1}, column ${column}`,
        );
      fail(`invalid YAML front matter: ${first}`);
    }
    const value: unknown = document.toJS();
    if (value !== null && value !== undefined) {
      if (!isRecord(value))
        fail(`the front matter must be a mapping of keys to values, not ${kindOf(value)}`);
      meta = value as Record<string, unknown>;
    }
  } else if (/^\uFEFF?---[ \t]*\r?\n/.test(markdown)) {
    fail('the front matter opened with --- on the first line is never closed by a --- line');
  }

  const name = optionalString(meta, 'name', fail) ?? defaultName(fileName);
  if (name === '') fail('the skill has no name (front matter "name" or the file name)');
  if ([...name].length > MAX_SKILL_NAME_CHARS)
    fail(`the name is longer than ${MAX_SKILL_NAME_CHARS} characters`);
  const description = optionalString(meta, 'description', fail);

  const triggers = meta['triggers'] ?? {};
  if (!isRecord(triggers))
    fail(`"triggers" must be a mapping with keywords and patterns, not ${kindOf(triggers)}`);
  const trigger = triggers as Record<string, unknown>;
  const unknown = Object.keys(trigger).filter((k) => !TRIGGER_KEYS.includes(k));
  if (unknown.length > 0)
    fail(
      `unknown key${unknown.length > 1 ? 's' : ''} under triggers: ${unknown.join(', ')} (expected keywords, patterns)`,
    );
  const keywords = stringList(trigger, 'keywords', fail);
  const patterns = stringList(trigger, 'patterns', fail);
  patterns.forEach((pattern, i) => {
    const where = `triggers.patterns[${i}] ${JSON.stringify(pattern)}`;
    if (pattern.length > MAX_SKILL_PATTERN_CHARS)
      fail(`${where} is longer than ${MAX_SKILL_PATTERN_CHARS} characters`);
    try {
      new RegExp(pattern, 'i');
    } catch (error) {
      fail(
        `${where} is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (!safeRegex(pattern))
      fail(`${where} has nested repetition (like (a+)+), which can take exponential time`);
  });

  return { name, description, keywords, patterns, body: body.trim(), source: markdown };
}

function defaultName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  return base.replace(/\.md$/i, '').trim();
}

function optionalString(
  meta: Record<string, unknown>,
  key: string,
  fail: (problem: string) => never,
): string | null {
  const value = meta[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') fail(`"${key}" must be a string, not ${kindOf(value)}`);
  return (value as string).trim();
}

/** A list of non-empty strings under triggers (absent: none), trimmed and distinct. */
function stringList(
  triggers: Record<string, unknown>,
  key: string,
  fail: (problem: string) => never,
): string[] {
  const value = triggers[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) fail(`triggers.${key} must be a list of strings, not ${kindOf(value)}`);
  const out: string[] = [];
  (value as unknown[]).forEach((item, i) => {
    if (typeof item !== 'string')
      fail(`triggers.${key}[${i}] must be a string, not ${kindOf(item)} (${JSON.stringify(item)})`);
    const text = key === 'keywords' ? (item as string).trim() : (item as string);
    if (text.trim() === '') fail(`triggers.${key}[${i}] is empty`);
    if (!out.includes(text)) out.push(text);
  });
  return out;
}
