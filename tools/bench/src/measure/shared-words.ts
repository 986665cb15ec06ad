import type { Client } from 'pg';

/**
 * Whether full text can reach a question's evidence at all: some evidence turn, or the turn
 * before it (whose words a reply inherits), holds one of the question's content words (Postgres'
 * english lexemes, the speakers' names left out: they name who said it, not what). A miss
 * without shared words is one only a semantic signal could have found.
 */
export function sharesWords(
  question: ReadonlySet<string>,
  evidence: readonly string[],
  lexemesOf: (turn: string) => ReadonlySet<string> | undefined,
  previousOf: (turn: string) => string | undefined,
): boolean {
  const overlaps = (turn: string | undefined) => {
    const words = turn === undefined ? undefined : lexemesOf(turn);
    if (!words) return false;
    for (const w of question) if (words.has(w)) return true;
    return false;
  };
  return evidence.some((turn) => overlaps(turn) || overlaps(previousOf(turn)));
}

/** Each text's lexemes as the store's english configuration makes them. */
export async function lexemesOfTexts(admin: Client, texts: readonly string[]): Promise<Set<string>[]> {
  const { rows } = await admin.query<{ i: number; lexemes: string[] }>(
    `SELECT t.i::int AS i, tsvector_to_array(to_tsvector('english', t.text)) AS lexemes
       FROM unnest($1::text[]) WITH ORDINALITY AS t(text, i)`,
    [texts],
  );
  const out = texts.map(() => new Set<string>());
  for (const r of rows) out[r.i - 1] = new Set(r.lexemes);
  return out;
}

/** A tenant's stored message: which turn of which agent it is, and its lexemes. */
export interface StoredTurn {
  readonly id: string;
  readonly agent: string;
  readonly turnId: string;
  readonly conversationId: string;
  readonly author: string | null;
  readonly lexemes: ReadonlySet<string>;
}

/** Every message of the scratch tenant, each conversation's in transcript order: one read serves the turn index and the reach. */
export async function storedTurns(admin: Client, tenantId: string): Promise<StoredTurn[]> {
  const { rows } = await admin.query<{
    id: string;
    agent: string;
    turn_id: string;
    conversation_id: string;
    author: string | null;
    lexemes: string[];
  }>(
    `SELECT id::text AS id, agent, turn_id, conversation_id::text, author, tsvector_to_array(tsv) AS lexemes
       FROM messages WHERE tenant_id = $1
      ORDER BY conversation_id, created_at, stream_seq, position, id`,
    [tenantId],
  );
  return rows.map((r) => ({
    id: r.id,
    agent: r.agent,
    turnId: r.turn_id,
    conversationId: r.conversation_id,
    author: r.author,
    lexemes: new Set(r.lexemes),
  }));
}

/** For one agent: each turn's lexemes and the turn before it in its conversation. */
export class TurnWords {
  private readonly lexemes = new Map<string, ReadonlySet<string>>();
  private readonly previous = new Map<string, string>();

  constructor(turns: readonly StoredTurn[]) {
    let last: StoredTurn | undefined;
    for (const t of turns) {
      this.lexemes.set(t.turnId, t.lexemes);
      if (last && last.conversationId === t.conversationId) this.previous.set(t.turnId, last.turnId);
      last = t;
    }
  }

  readonly lexemesOf = (turn: string): ReadonlySet<string> | undefined => this.lexemes.get(turn);
  readonly previousOf = (turn: string): string | undefined => this.previous.get(turn);
}

/** Misses at k, split by whether full text could reach their evidence. */
export interface MissesByReach {
  readonly k: number;
  readonly questions: number;
  readonly misses: number;
  /** Misses whose evidence shares no content word with the question. */
  readonly missesWithoutSharedWords: number;
}

export function missesByReach(
  questions: ReadonlyArray<{ readonly ranks: ReadonlyArray<number | null>; readonly sharesWords: boolean }>,
  k: number,
): MissesByReach {
  const missed = questions.filter((q) => !q.ranks.some((r) => r !== null && r <= k));
  return {
    k,
    questions: questions.length,
    misses: missed.length,
    missesWithoutSharedWords: missed.filter((q) => !q.sharesWords).length,
  };
}

/**
 * For each question, whether its evidence shares a content word with it (sharesWords): the
 * questions' lexemes (Postgres' english configuration) less those of the speakers' names, against
 * the stored turns' (`turnKey` spells a stored turn id as the evidence does).
 */
export async function evidenceSharesWords(
  admin: Client,
  stored: readonly StoredTurn[],
  questions: ReadonlyArray<{
    readonly agent: string;
    readonly text: string;
    readonly evidence: readonly string[];
  }>,
  turnKey: (turnId: string) => string = (id) => id,
): Promise<boolean[]> {
  const turns = stored.map((t) => ({ ...t, turnId: turnKey(t.turnId) }));
  const byAgent = new Map<string, StoredTurn[]>();
  for (const t of turns) {
    const list = byAgent.get(t.agent);
    if (list) list.push(t);
    else byAgent.set(t.agent, [t]);
  }
  const words = new Map([...byAgent].map(([agent, list]) => [agent, new TurnWords(list)]));
  const authors = [...new Set(turns.flatMap((t) => (t.author ? [t.author] : [])))];
  const names = new Set((await lexemesOfTexts(admin, authors)).flatMap((s) => [...s]));
  const asked = await lexemesOfTexts(
    admin,
    questions.map((q) => q.text),
  );
  return questions.map((q, i) => {
    const w = words.get(q.agent);
    const content = new Set([...asked[i]!].filter((l) => !names.has(l)));
    return !!w && sharesWords(content, q.evidence, w.lexemesOf, w.previousOf);
  });
}
