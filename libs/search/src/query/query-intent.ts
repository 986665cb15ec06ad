/** Whose words a query asks about: the user's own, or the assistant's. */
export type QueryRole = 'user' | 'assistant';

/** "you told me", "did you suggest", "the assistant said": what the assistant said. */
const ASSISTANT_WORDS =
  /\b(?:(?:you|the assistant)\s+(?:\w+\s+)?(?:told|said|suggested|recommended|mentioned|gave|shared|provided|listed|explained|described|wrote|proposed|advised|named)|did (?:you|the assistant)\s+(?:tell|say|suggest|recommend|mention|give|share|provide|list|explain|describe|write|propose|advise|name))\b/;
/** "I", "my", "me", "the user": what the user said of themselves. */
const USER_WORDS = /\b(?:i|my|me|mine|myself|i'm|i've|i'd|i'll|the user|user's)\b/;

/**
 * Whose messages a query asks about, when it says: a question in the first person is about what
 * the user said of themselves (their job, their dog: in their own turns, not in the assistant's
 * long answers); one about what "you told me" is about the assistant's turns. Null when it names
 * neither (a third person, or no one) — then role does not matter.
 */
export function roleOfQuery(query: string): QueryRole | null {
  const text = query.toLowerCase().replace(/[’‘]/g, "'");
  if (ASSISTANT_WORDS.test(text)) return 'assistant';
  if (USER_WORDS.test(text)) return 'user';
  return null;
}

/** "How many …", "in total", "both", "which cities", "what kinds of", "what books has …": several answers. */
const SEVERAL_WORDS =
  /\b(?:how many|how much|in total|total|both|all the|which \w+s|what (?:kinds?|types?|sorts?) of|what \w+s (?:has|have|did|does|do))\b/;

/**
 * Whether a query asks for several things ("Which cities has John been to?", "How many games did
 * I win?"): their evidence is usually spread over several conversations, so the hits should be
 * too, rather than the turns around one good match.
 */
export function asksForSeveral(query: string): boolean {
  return SEVERAL_WORDS.test(query.toLowerCase());
}
