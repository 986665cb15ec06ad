/** What a workspace document is to the prompt: one of the agent's fixed files, or a daily note. */
export const WORKSPACE_DOCUMENT_KINDS = [
  'soul',
  'identity',
  'user',
  'agents',
  'tools',
  'memory',
  'daily',
] as const;
export type WorkspaceDocumentKind = (typeof WORKSPACE_DOCUMENT_KINDS)[number];

/** The fixed files of an agent's workspace, by the name they are stored under. */
export const WORKSPACE_FILES: Readonly<Record<string, Exclude<WorkspaceDocumentKind, 'daily'>>> = {
  'SOUL.md': 'soul',
  'IDENTITY.md': 'identity',
  'USER.md': 'user',
  'AGENTS.md': 'agents',
  'TOOLS.md': 'tools',
  'MEMORY.md': 'memory',
};

export interface WorkspaceDocumentName {
  /** The name it is stored under: the fixed file's name as listed, a daily note as `memory/YYYY-MM-DD.md`. */
  readonly name: string;
  readonly kind: WorkspaceDocumentKind;
  /** The daily note's day (YYYY-MM-DD); null for the fixed files. */
  readonly day: string | null;
}

const DAILY_NOTE = /^(?:memory\/)?(\d{4})-(\d{2})-(\d{2})\.md$/i;
const FIXED_BY_LOWER_NAME = new Map(Object.keys(WORKSPACE_FILES).map((name) => [name.toLowerCase(), name]));

/** Backslashes as slashes, no leading `./`. */
const normalise = (name: string) =>
  name
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(?:\.\/)+/, '');

function isCalendarDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * The kind of a workspace file by its name as imported: `SOUL.md` → soul, `IDENTITY.md`,
 * `USER.md`, `AGENTS.md`, `TOOLS.md`, `MEMORY.md` (any letter case), and
 * `memory/YYYY-MM-DD.md` or `YYYY-MM-DD.md` → a daily note of that (calendar) day.
 * Anything else is not a workspace file: null (see workspaceSkipReason).
 */
export function workspaceDocumentKind(name: string): WorkspaceDocumentName | null {
  const path = normalise(name);
  const fixed = FIXED_BY_LOWER_NAME.get(path.toLowerCase());
  if (fixed) return { name: fixed, kind: WORKSPACE_FILES[fixed]!, day: null };
  const daily = DAILY_NOTE.exec(path);
  if (!daily) return null;
  const [year, month, day] = [Number(daily[1]), Number(daily[2]), Number(daily[3])];
  if (!isCalendarDay(year, month, day)) return null;
  const iso = `${daily[1]}-${daily[2]}-${daily[3]}`;
  return { name: `memory/${iso}.md`, kind: 'daily', day: iso };
}

/** Why a name is not a workspace file (for names workspaceDocumentKind answers null to). */
export function workspaceSkipReason(name: string): string {
  const daily = DAILY_NOTE.exec(normalise(name));
  if (daily) return `${daily[1]}-${daily[2]}-${daily[3]} is not a calendar day`;
  return `not a workspace file: expected ${Object.keys(WORKSPACE_FILES).join(', ')} or a daily note memory/YYYY-MM-DD.md`;
}
