/** The longest text a fact may hold; an item's searchable text is cut there (its value stays whole). */
export const MAX_ITEM_TEXT = 4000;

/**
 * The text Engram searches an item by: the texts at `fields` (LangGraph's index paths: `a.b`,
 * `a[*].b`, `a[0]`, `a[-1]`, `$` for the whole value as JSON), or every string in the value when
 * no fields are given; the value as JSON when that finds none. One text per line.
 */
export function itemText(value: Record<string, unknown>, fields?: readonly string[] | false): string {
  const texts = fields
    ? fields.flatMap((field) => textsAt(value, field))
    : fields === false
      ? []
      : strings(value);
  const text = texts.filter((t) => t.trim() !== '').join('\n') || JSON.stringify(value);
  return [...text].slice(0, MAX_ITEM_TEXT).join('');
}

/** Every string in a JSON value, depth first, in the order of its keys. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** The texts at one path: strings, numbers and booleans as they read, objects and arrays as JSON. */
export function textsAt(value: unknown, path: string): string[] {
  if (path === '$') return [JSON.stringify(value)];
  let found: unknown[] = [value];
  for (const step of steps(path)) found = found.flatMap((v) => follow(v, step));
  return found.flatMap((v) => {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return [String(v)];
    return v === null || v === undefined ? [] : [JSON.stringify(v)];
  });
}

/** `a.b[*].c[-1]` as `a`, `b`, `[*]`, `c`, `[-1]`. */
function steps(path: string): string[] {
  return path.split('.').flatMap((part) => part.split(/(?=\[)/).filter((s) => s !== ''));
}

/** What one step reaches from a value: a field, every element (`[*]`) or one (`[i]`, negative from the end). */
function follow(value: unknown, step: string): unknown[] {
  const index = /^\[(\*|-?\d+)\]$/.exec(step)?.[1];
  if (index === undefined) {
    return value !== null && typeof value === 'object' && !Array.isArray(value) && step in value
      ? [(value as Record<string, unknown>)[step]]
      : [];
  }
  if (!Array.isArray(value)) return [];
  if (index === '*') return value;
  const at = Number(index) < 0 ? value.length + Number(index) : Number(index);
  return at >= 0 && at < value.length ? [value[at]] : [];
}
