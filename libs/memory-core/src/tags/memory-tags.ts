/**
 * Assistant messages may carry memory instructions for Engram:
 *   [MEMORY:user_preference] The user prefers dark mode. [/MEMORY]
 *   [STATE:current_project] engram [/STATE]
 * They become facts and state; the user sees the message without them.
 */
export interface TaggedMemory {
  /** The tag's type as written (a lifetime type or a category). */
  readonly type: string;
  readonly content: string;
  /** Position among the message's MEMORY tags: part of the fact's natural key. */
  readonly index: number;
}

export interface TaggedState {
  readonly key: string;
  readonly value: string;
}

export interface ParsedTags {
  /** The text with every well-formed tag (and what it wraps) removed. */
  readonly display: string;
  readonly memories: readonly TaggedMemory[];
  readonly state: readonly TaggedState[];
}

// A tag's body may not open another tag: an unclosed tag never swallows the next one.
const TAG = /\[(MEMORY|STATE):([A-Za-z0-9_.-]{1,64})\]((?:(?!\[(?:MEMORY|STATE):)[\s\S])*?)\[\/\1\]/gi;
/** Marks where a tag was, so that a line that held only a tag disappears with it. */
const HOLE = '\uE000';

export function parseMemoryTags(text: string): ParsedTags {
  if (!text.includes('[')) return { display: text, memories: [], state: [] };
  const memories: TaggedMemory[] = [];
  const state: TaggedState[] = [];
  let found = false;
  const stripped = text.replace(TAG, (_match, kind: string, name: string, body: string) => {
    found = true;
    const content = body.trim();
    if (kind.toUpperCase() === 'MEMORY') {
      if (content) memories.push({ type: name.toLowerCase(), content, index: memories.length });
    } else {
      state.push({ key: name, value: content });
    }
    return HOLE;
  });
  if (!found) return { display: text, memories: [], state: [] };
  return { display: tidyWhitespace(stripped), memories, state };
}

/** Removing a tag leaves holes: no double spaces, no space before punctuation, no triple newlines. */
function tidyWhitespace(text: string): string {
  return text
    .replace(new RegExp(`^[ \\t]*${HOLE}[ \\t${HOLE}]*(?:\\n|$)`, 'gm'), '')
    .replaceAll(HOLE, ' ')
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/ +([.,;:!?])/g, '$1')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n[ \t]+/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
