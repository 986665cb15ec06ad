import { cosine } from './vectors';

/** A scene joins the most similar sub-cluster at or above this cosine; else its root. */
export const JOIN_THRESHOLD = 0.45;
/** A small sub-cluster moves into its most similar sibling above this cosine; else into its root. */
export const MERGE_THRESHOLD = 0.45;
/** A cluster with more active nodes than this is split (❻). */
export const SPLIT_ABOVE = 10;
/** A sub-cluster with at most this many active nodes is merged away (❼). */
export const MERGE_AT_MOST = 2;

export const ROOTS = ['business', 'private'] as const;
export type Root = (typeof ROOTS)[number];
export const ROOT_NAMES: Record<Root, string> = { business: 'Business', private: 'Private' };

/**
 * What each root is about, as text the being's embedding model reads: a scene goes to the
 * root whose prototype is nearer (so that ❶ runs offline on the built-in model too).
 */
export const ROOT_PROTOTYPES: Record<Root, string> = {
  business:
    'work job office meeting project client customer deadline colleague boss manager team company business contract invoice budget report presentation email schedule task career salary',
  private:
    'family home friend love partner child mother father sister brother birthday holiday dinner hobby music movie walk garden pet feelings dream memory weekend party kiss hug',
};

export interface Candidate<Id> {
  readonly id: Id;
  readonly vector: ArrayLike<number>;
}

/** The candidate most similar to `vector` at or above `threshold` (the first on ties); null when none is. */
export function mostSimilar<Id>(
  vector: ArrayLike<number>,
  candidates: ReadonlyArray<Candidate<Id>>,
  threshold: number,
): { id: Id; similarity: number } | null {
  let best: { id: Id; similarity: number } | null = null;
  for (const c of candidates) {
    const similarity = cosine(vector, c.vector);
    if (similarity >= threshold && (best === null || similarity > best.similarity))
      best = { id: c.id, similarity };
  }
  return best;
}

/** The root whose prototype vector is nearer; private on a tie (what is not work is life). */
export function classifyRoot(vector: ArrayLike<number>, prototypes: Record<Root, ArrayLike<number>>): Root {
  return cosine(vector, prototypes.business) > cosine(vector, prototypes.private) ? 'business' : 'private';
}
