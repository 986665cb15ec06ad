import { DROPPED_ADVERBS, ED_BASES, IRREGULAR_PAST } from './lexicon';

/**
 * First person → third person, neutrally: the subject becomes the user's name or
 * "The user", a leading "my" becomes "Ada's"/"The user's", and every other
 * first-person word becomes singular "they" (their, them, themselves).
 */

export interface Subject {
  /** "Ada" or "The user". */
  name: string;
  /** "Ada's" or "The user's". */
  possessive: string;
}

export function subjectFor(userName?: string | null): Subject {
  const name = userName?.replace(/\s+/g, ' ').trim();
  if (!name) return { name: 'The user', possessive: "The user's" };
  return { name, possessive: `${name}'s` };
}

/** Contractions and chat spellings expanded so rules see one form. Also curly quotes → straight. */
export function normalizeFirstPerson(text: string): string {
  return text
    .replace(/[\u2018\u2019\u02BC]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/(^|[\s,;:(])i(?=['\s]|$)/g, '$1I')
    .replace(/^im\s+/i, 'I am ')
    .replace(/\bI'm\b/gi, 'I am')
    .replace(/\bI've\b/gi, 'I have')
    .replace(/\bI'll\b/gi, 'I will')
    .replace(/\bI'd\b/gi, 'I would')
    .replace(/\bcan't\b/gi, 'cannot')
    .replace(/\bwon't\b/gi, 'will not')
    .replace(/\b(do|does|did|is|was|are|were|have|has|had|could|would|should|must|need)n't\b/gi, '$1 not')
    .replace(/\bain't\b/gi, 'am not')
    .replace(/\bgonna\b/gi, 'going to')
    .replace(/\bwanna\b/gi, 'want to')
    .replace(/\bgotta\b/gi, 'have got to')
    .replace(/\bname's\b/gi, 'name is')
    .replace(/\bfav(?:e|ou?rite)?\b(?=\s)/gi, (word) => (/^fav(e)?$/i.test(word) ? 'favourite' : word))
    .replace(/\s+/g, ' ')
    .trim();
}

const MODALS = new Set([
  'will',
  'would',
  'can',
  'could',
  'shall',
  'should',
  'may',
  'might',
  'must',
  'cannot',
  'ought',
  'used',
]);

/** Whether a verb form is already past (and so the same for every person). */
export function isPastForm(word: string): boolean {
  const w = word.toLowerCase();
  if (IRREGULAR_PAST.has(w)) return true;
  if (ED_BASES.has(w)) return false;
  return w.endsWith('ed') && w.length > 3;
}

/** The third person singular present of a verb as "I" would say it. */
export function thirdPersonVerb(word: string): string {
  const w = word.toLowerCase();
  const keepCase = (out: string): string =>
    word[0] === word[0].toUpperCase() ? out[0].toUpperCase() + out.slice(1) : out;
  if (w === 'am') return keepCase('is');
  if (w === 'was' || MODALS.has(w) || isPastForm(w)) return word;
  if (w === 'have') return keepCase('has');
  if (w === 'do') return keepCase('does');
  if (w === 'go') return keepCase('goes');
  if (/(s|sh|ch|x|z|o)$/.test(w)) return keepCase(`${w}es`);
  if (/[^aeiou]y$/.test(w)) return keepCase(`${w.slice(0, -1)}ies`);
  return keepCase(`${w}s`);
}

/** Every first-person word after the subject, as singular "they". */
export function convertPronouns(text: string): string {
  return text
    .replace(/\bI am\b/g, 'they are')
    .replace(/\bI was\b/g, 'they were')
    .replace(/\bI\b/g, 'they')
    .replace(/\bmyself\b/gi, 'themselves')
    .replace(/\bourselves\b/gi, 'themselves')
    .replace(/\bmine\b/gi, 'theirs')
    .replace(/\bours\b/gi, 'theirs')
    .replace(/\b[Mm]y\b/g, 'their')
    .replace(/\b[Oo]ur\b/g, 'their')
    .replace(/\b[Mm]e\b/g, 'them')
    .replace(/\bus\b/g, 'them')
    .replace(/\b[Ww]e are\b/g, 'they are')
    .replace(/\b[Ww]e were\b/g, 'they were')
    .replace(/\b[Ww]e\b/g, 'they');
}

/**
 * "I <adverbs> <verb> <rest>" in the third person. `adverbs` are the words found
 * between "I" and the verb; those about the telling ("actually", "just") are
 * dropped. Past forms stay; `pastTense` keeps ambiguous forms ("read", "quit").
 */
export function rewriteFirstPersonClause(
  subject: Subject,
  adverbs: readonly string[],
  body: string,
  pastTense: boolean,
): string {
  const [verb, ...rest] = body.split(' ');
  const kept = adverbs.filter((adverb) => !DROPPED_ADVERBS.has(adverb.toLowerCase()));
  const auxiliary = /^(am|have|do)$/i.test(verb);
  const conjugated = pastTense && !auxiliary ? verb : thirdPersonVerb(verb);
  return [subject.name, ...kept, conjugated, convertPronouns(rest.join(' '))].filter(Boolean).join(' ');
}

/** A fact's final form: one sentence, capitalised, ending in a full stop. */
export function finishSentence(text: string): string {
  let out = text.replace(/\s+/g, ' ').trim();
  let previous: string;
  do {
    previous = out;
    out = out
      .replace(/[\p{Extended_Pictographic}\uFE0F\u200D]+$/u, '')
      .replace(/\s(?:[:;=]-?[()DPp[\]/\\|]|<3)+$/u, '')
      .replace(/[\s,;:!?.…–—-]+$/u, '')
      .replace(/[\s,]+(?:lol|haha+|lmao|tbh|btw|though|too|as well|also|either)$/iu, '')
      .trim();
  } while (out !== previous);
  out = out.replace(/\s+([,.;:!?])/g, '$1');
  if (!out) return '';
  return `${out[0].toUpperCase()}${out.slice(1)}.`;
}
