import type { MessageRole } from '../turns/normalize-turn';

/** A message of the window a fact was extracted from, as its sources are chosen. */
export interface WindowLine {
  readonly id: string;
  readonly role: MessageRole;
  readonly createdAt: Date;
}

/**
 * The messages a fact points to: those the model named that are in the window (a model may
 * invent ids); when it named none of them, the window's user messages, so every fact
 * points somewhere.
 */
export function factSources(named: readonly string[], window: readonly WindowLine[]): string[] {
  const inWindow = new Set(window.map((w) => w.id));
  const kept = [...new Set(named.filter((id) => inWindow.has(id)))];
  return kept.length > 0 ? kept : window.filter((w) => w.role === 'user').map((w) => w.id);
}

/** When a fact was stated: its latest source message's time (null when none is in the window). */
export function statedAt(sourceIds: readonly string[], window: readonly WindowLine[]): Date | null {
  const ids = new Set(sourceIds);
  const times = window.filter((w) => ids.has(w.id)).map((w) => w.createdAt.getTime());
  return times.length > 0 ? new Date(Math.max(...times)) : null;
}
