import * as chrono from 'chrono-node';
import { DEFAULT_IMPORTANCE, type FactCategory } from '@engram/memory-core';
import { splitSentences } from '../sentences';
import { isoDate, localDay, resolveRelativeDates, type DateDirection } from './dates';
import { ADVERBS } from './lexicon';
import {
  COMPOUND_SUBJECT,
  ME_AND_MY,
  KIN_PATTERN,
  matchHabit,
  matchIClause,
  matchMyClause,
  matchNameIntroduction,
  objectOk,
  type RuleMatch,
} from './rules';
import {
  convertPronouns,
  finishSentence,
  isPastForm,
  normalizeFirstPerson,
  rewriteFirstPersonClause,
  subjectFor,
  type Subject,
} from './rewrite';

/** A message the extractor reads. Only role 'user' messages yield facts. */
export interface FactSourceMessage {
  id: string;
  role: string;
  author?: string | null;
  text: string;
  at: Date;
}

export interface ExtractFactsOptions {
  /** The user's name, if known: "Ada loves hiking." rather than "The user loves hiking." */
  userName?: string | null;
  /**
   * Language of the conversation (BCP 47). The rules are English; any other
   * language yields no facts at all (rather than wrong ones). Default 'en'.
   * Messages that are mostly non-Latin script are skipped either way.
   */
  language?: string;
  /** The user's UTC offset in minutes, which decides what day "tomorrow" is. Default 0. */
  timezoneOffsetMinutes?: number;
  /** Most facts returned. Default 50. */
  maxFacts?: number;
}

export interface ExtractedFact {
  /** A standalone third-person sentence. */
  content: string;
  category: FactCategory;
  /** 1–10. */
  importance: number;
  sourceMessageIds: string[];
  /**
   * When the fact became true, when the text says (a dated past event);
   * otherwise the time of the message that stated it.
   */
  validFrom?: Date;
}

const QUESTION_START =
  /^(who|what|when|where|why|how|which|whose|whom|do|does|did|is|are|am|was|were|can|could|would|should|will|shall|may|might|have|has|had)\b(?!\s*,)/i;
const SUBORDINATE_START =
  /^(when|while|if|although|though|as|once|unless|until|whenever|because|since|after|before|whether|even if|even though|in case|suppose|imagine)\b/i;
const INTERJECTIONS =
  /^(?:(?:hi|hello|hey|hiya|howdy|yo|greetings|good (?:morning|afternoon|evening|day)|thanks|thank you|ok|okay|oh|ah|aha|well|so|also|and|but|btw|by the way|anyway|anyways|fun fact|fyi|yeah|yes|yep|yup|nah|lol|haha+|hmm+|um+|uh+|alright|all right|cool|great|nice|sure|wow|honestly|frankly|basically|plus|just so you know|for the record|as I said|like I said|as I mentioned|again|correction|actually|in fact|to be honest|tbh|to clarify|sorry|oops|right|listen|look|guess what|no(?=\s*,))\b[\s,!.:;–—-]*)+/i;
const CORRECTION_CUE = /^(?:[\w\s,]*\b)?(actually|correction|to clarify|no(?=\s*,))\b/i;
const SECOND_PERSON = /\b(you|your|yours|yourself|yourselves|u|ur|ya)\b/i;
const HYPOTHETICAL =
  /\b(if|would|could|might|maybe|perhaps|probably|possibly|wish|wishes|hope|hoping|hopefully|suppose|supposedly|imagine|unless|whether|should|wonder|wondering|pretend|pretending|fantasi[sz]e|someday|one day)\b/i;
const SECRET =
  /\b(password|passcode|passphrase|pin|ssn|social security|credit card|card number|cvv|api key|access token|token|secret|private key|seed phrase|recovery phrase)\b/i;
const DEICTIC = /\b(here|there)\b/i;
const JOKING = /\b(jk|kidding|joking|sarcasm|sarcastic)\b|\/s\b/i;
const NEGATION = /\b(not|never|no|nobody|nothing|none|neither|nor|cannot)\b/i;
const DEMONSTRATIVE = /\b(this|that|these|those|it)\b/i;
const CORRECTION_TAIL = /,\s*(?:not|rather than|instead of)\s+[^,]+$/i;

/** Characters of a message read for facts: beyond this it is a pasted document, not the user speaking. */
const MAX_MESSAGE_CHARS = 10_000;
/** A first-person anchor; sentences without one cannot match any rule. */
const FIRST_PERSON = /\b(?:I|my|me|im|i)\b|\bI'/i;

/** Fenced code and quoted lines are not the user speaking. */
function speechOf(text: string): string {
  let kept = text;
  if (kept.length > MAX_MESSAGE_CHARS) {
    kept = kept.slice(0, MAX_MESSAGE_CHARS);
    const lastEnd = Math.max(
      kept.lastIndexOf('.'),
      kept.lastIndexOf('!'),
      kept.lastIndexOf('?'),
      kept.lastIndexOf('\n'),
    );
    kept = kept.slice(0, lastEnd + 1); // never read a sentence cut in half
  }
  return kept
    .replace(/```[\s\S]*?(?:```|$)/g, '\n')
    .replace(/^\s*>.*$/gm, '')
    .trim();
}

/** Mostly Latin script (the English rules cannot read anything else). */
function looksLatin(text: string): boolean {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (letters === 0) return false;
  const latin = text.match(/[A-Za-z\u00C0-\u024F]/g)?.length ?? 0;
  return latin / letters >= 0.8;
}

function stripInterjections(clause: string): { text: string; correction: boolean } {
  const match = INTERJECTIONS.exec(clause);
  if (!match || match[0].length === 0) return { text: clause, correction: false };
  return { text: clause.slice(match[0].length).trim(), correction: CORRECTION_CUE.test(match[0]) };
}

const KIN_AND_I = new RegExp(`\\b([Mm]y (?:${KIN_PATTERN})(?: [A-Z][\\p{Ll}'-]+)?) and I\\b`, 'gu');
const CLAUSE_BREAK =
  /\s*;\s*|\s*(?:,\s*|\s+)(?:and|but|so|because|plus|although|though|whereas|and then|then|also|and also|but also)\s+(?=(?:I|[Mm]y|[Mm]e and my)\b)|,\s+(?=(?:I|[Mm]y)\b)|\s+[–—-]\s+(?=(?:I|[Mm]y)\b)/u;

/** "I love hiking but I hate running" → two clauses. "My wife and I" stays whole. */
function splitClauses(sentence: string): string[] {
  const guarded = sentence
    .replace(KIN_AND_I, '$1 \uE000and I')
    .replace(/^([Mm]e) and my\b/, '$1 \uE000and my');
  return guarded
    .split(CLAUSE_BREAK)
    .map((clause) => clause.replace(/\uE000/g, '').trim())
    .filter(Boolean);
}

const LEADING_VAGUE =
  /^(recently|the other day|a while ago|(?:last|this|next|past|coming) (?:spring|summer|autumn|fall|winter))\s*,?\s+(?=(?:I|[Mm]y|[Mm]e)\b)/i;

/** "On Friday, I have an interview": the comma after a leading date is not a clause break. */
function joinLeadingTime(sentence: string, at: Date, offset: number): string {
  if (/^(?:I|[Mm]y|[Mm]e)\b/.test(sentence) || LEADING_VAGUE.test(sentence)) return sentence;
  const first = chrono.casual.parse(sentence, { instant: at, timezone: offset })[0];
  if (!first || !/^(?:(?:on|in|at|since|by|during)\s+)?$/i.test(sentence.slice(0, first.index)))
    return sentence;
  const end = first.index + first.text.replace(/[\s,]+$/, '').length;
  const comma = /^\s*,\s*(?=(?:I|[Mm]y|[Mm]e)\b)/.exec(sentence.slice(end));
  return comma ? `${sentence.slice(0, end)} ${sentence.slice(end + comma[0].length)}` : sentence;
}

/** "Last week, I went to Paris" → "I went to Paris last week". */
function moveLeadingTime(clause: string, at: Date, offset: number): string {
  const vague = LEADING_VAGUE.exec(clause);
  if (vague) return `${clause.slice(vague[0].length)} ${vague[1]}`;
  if (/^(?:I|[Mm]y|[Mm]e|[Rr]emind|[Cc]all|[Pp]lease)\b/.test(clause)) return clause;
  const first = chrono.casual.parse(clause, { instant: at, timezone: offset })[0];
  if (!first) return clause;
  const before = clause.slice(0, first.index);
  if (!/^(?:(?:on|in|at|since|by|during)\s+)?$/i.test(before)) return clause;
  const expressionText = first.text.replace(/[\s,]+$/, '');
  const after = clause.slice(first.index + expressionText.length);
  const rest = /^\s*,?\s*(?=(?:I|[Mm]y|[Mm]e)\b)/.exec(after);
  if (!rest) return clause;
  const expression = (before + expressionText).trim();
  const lowered =
    /^[A-Z][a-z]/.test(expression) &&
    !/^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December)\b/.test(
      expression,
    )
      ? expression[0].toLowerCase() + expression.slice(1)
      : expression;
  return `${after.slice(rest[0].length)} ${lowered}`;
}

interface Context {
  subject: Subject;
  at: Date;
  offset: number;
  firstSentence: boolean;
}

interface Draft {
  content: string;
  category: FactCategory;
  boost: number;
  validFrom: Date;
}

function directionOf(match: RuleMatch): DateDirection {
  return match.tense === 'past' ? 'past' : match.tense === 'future' ? 'future' : 'any';
}

/** Dates resolved in `text`, or null when the rule's date requirements are not met. */
function withDates(text: string, match: RuleMatch, ctx: Context): { text: string; validFrom: Date } | null {
  const resolution = resolveRelativeDates(text, ctx.at, {
    direction: directionOf(match),
    timezoneOffsetMinutes: ctx.offset,
    keepYearless: match.keepYearless,
    allowTimeOnly: match.tense !== 'present',
  });
  const today = localDay(ctx.at, ctx.offset);
  if (match.needsDate && resolution.dates.length === 0) return null;
  if (
    match.tense === 'future' &&
    resolution.dates.some((date) => date.date.getTime() < today.getTime() && date.precision === 'day')
  )
    return null;
  if (match.tense === 'past' && resolution.dates.some((date) => date.date.getTime() > today.getTime()))
    return null;
  let validFrom = ctx.at;
  if (match.tense === 'past' && resolution.dates.length > 0) {
    validFrom = new Date(Math.min(...resolution.dates.map((date) => date.date.getTime())));
  }
  return { text: resolution.text, validFrom };
}

const AGE = /\b(?:is|are) \d{1,3}(?: years old)?(?:[\s,.]|$)|\b\d{1,3} years old\b/i;
const DURATION =
  /\bfor (?:the (?:last|past) )?(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|several|many|a few|a couple of) (?:days?|weeks?|months?|years?|decades?)\b/i;

/** A statement that ages ("34 years old", "for 5 years") is pinned to the day it was made. */
function asOf(text: string, match: RuleMatch, ctx: Context): string {
  return match.asOf || DURATION.test(text) || AGE.test(text)
    ? `${text} (as of ${isoDate(localDay(ctx.at, ctx.offset))})`
    : text;
}

/** A clause without its closing punctuation, emoticons and emoji. */
function trimEnd(clause: string): string {
  let out = clause.trim();
  let previous: string;
  do {
    previous = out;
    out = out
      .replace(/[\p{Extended_Pictographic}\uFE0F\u200D]+$/u, '')
      .replace(/\s(?:[:;=]-?[()DPp[\]/\\|]|<3)+$/u, '')
      .replace(/[\s.!…,;:]+$/u, '')
      .replace(/[\s,]+(?:lol|haha+|lmao|tbh|btw|though|too|as well|either|fyi)$/iu, '')
      .trim();
  } while (out !== previous);
  return out;
}

function clauseGuards(clause: string): boolean {
  if (!clause || clause.length > 240) return false;
  if (/^["'“‘(]/.test(clause)) return false; // quoted speech
  if (SECOND_PERSON.test(clause) || HYPOTHETICAL.test(clause) || SECRET.test(clause)) return false;
  if (DEICTIC.test(clause) || JOKING.test(clause)) return false;
  if (clause.split(/\s+/).length > 40) return false;
  return true;
}

/** The "I …" clause: peel adverbs, match a rule, rewrite. */
function fromIClause(rest: string, ctx: Context, correction: boolean): Draft | null {
  const words = rest.split(' ');
  const adverbs: string[] = [];
  while (words.length > 1) {
    const word = words[0].toLowerCase().replace(/,$/, '');
    if (word === 'no' && words[1]?.toLowerCase() === 'longer') {
      adverbs.push('no longer');
      words.splice(0, 2);
      correction = true;
      continue;
    }
    if (!ADVERBS.has(word)) break;
    adverbs.push(words.shift() as string);
  }
  let body = words.join(' ');
  // "I have just moved" → the adverb after the auxiliary.
  const auxAdverb = /^(have|had) (just|recently|finally|already) (.+)$/i.exec(body);
  if (auxAdverb) {
    adverbs.push(auxAdverb[2]);
    body = `${auxAdverb[1]} ${auxAdverb[3]}`;
  }

  const correctionTail = CORRECTION_TAIL.exec(body);
  const core = correctionTail ? body.slice(0, correctionTail.index) : body;
  if (correctionTail) correction = true;

  let match: RuleMatch | null = null;
  let name: string | null = null;
  if (ctx.firstSentence) name = matchNameIntroduction(core);
  if (!name) {
    match = matchIClause(core) ?? matchHabit(adverbs, core);
    if (!match) return null;
    const negated = NEGATION.test(core) || adverbs.some((adverb) => /^(never|no longer)$/i.test(adverb));
    if (negated && !match.allowsNegation && !adverbs.includes('no longer')) return null;
    if ((match.tense === 'future' || match.category === 'decision') && DEMONSTRATIVE.test(core)) return null;
  }
  if (name) {
    return {
      content: finishSentence(`The user's name is ${name}`),
      category: 'fact',
      boost: 2,
      validFrom: ctx.at,
    };
  }
  const rule = match as RuleMatch;
  const dated = withDates(rule.body ?? body, rule, ctx);
  if (!dated) return null;
  const recent =
    adverbs.some((adverb) => /^(just|recently)$/i.test(adverb)) &&
    (rule.tense === 'past' || isPastForm(body.split(' ')[0]) || /^(have|has) \w+ed\b/i.test(body));
  let sentence =
    rule.rule === 'age'
      ? `${ctx.subject.name} ${dated.text}`
      : rewriteFirstPersonClause(ctx.subject, adverbs, dated.text, rule.tense === 'past');
  if (recent && dated.text === body) sentence += ` shortly before ${isoDate(localDay(ctx.at, ctx.offset))}`;
  const category: FactCategory = correction || adverbs.includes('no longer') ? 'correction' : rule.category;
  return {
    content: finishSentence(asOf(sentence, rule, ctx)),
    category,
    boost: rule.boost ?? 0,
    validFrom: dated.validFrom,
  };
}

function fromMyClause(rest: string, ctx: Context, correction: boolean): Draft | null {
  const correctionTail = CORRECTION_TAIL.exec(rest);
  const core = correctionTail ? rest.slice(0, correctionTail.index) : rest;
  if (correctionTail) correction = true;
  const match = matchMyClause(core);
  if (!match) return null;
  if (NEGATION.test(core) && !match.allowsNegation) return null;
  if (match.sentence) {
    const content = finishSentence(match.sentence(ctx.subject.possessive, ctx.subject.name));
    return {
      content,
      category: correction ? 'correction' : match.category,
      boost: match.boost ?? 0,
      validFrom: ctx.at,
    };
  }
  const justNow = match.tense === 'past' && /\bjust\s+/i.test(rest);
  const dated = withDates(justNow ? rest.replace(/\bjust\s+/i, '') : rest, match, ctx);
  if (!dated) return null;
  let sentence = `${ctx.subject.possessive} ${convertPronouns(dated.text)}`;
  if (justNow && dated.validFrom === ctx.at)
    sentence += ` shortly before ${isoDate(localDay(ctx.at, ctx.offset))}`;
  return {
    content: finishSentence(asOf(sentence, match, ctx)),
    category: correction ? 'correction' : match.category,
    boost: match.boost ?? 0,
    validFrom: dated.validFrom,
  };
}

/** "My wife and I moved to Lisbon" → "The user and their wife moved to Lisbon". */
function fromCompound(kinPhrase: string, rest: string, ctx: Context, correction: boolean): Draft | null {
  const singular = rest.replace(/^are\b/i, 'am').replace(/^were\b/i, 'was');
  const match = matchIClause(singular);
  if (!match || (NEGATION.test(rest) && !match.allowsNegation)) return null;
  if (match.rule === 'age' || match.rule === 'role' || match.rule === 'trait') return null; // "are 34" is not one fact
  const dated = withDates(rest, match, ctx);
  if (!dated) return null;
  const sentence = `${ctx.subject.name} and their ${kinPhrase} ${convertPronouns(dated.text)}`;
  const category: FactCategory = correction
    ? 'correction'
    : match.category === 'fact'
      ? 'relationship'
      : match.category;
  return {
    content: finishSentence(asOf(sentence, match, ctx)),
    category,
    boost: match.boost ?? 0,
    validFrom: dated.validFrom,
  };
}

function factsOfClause(raw: string, ctx: Context, sentenceCorrection: boolean): Draft | null {
  const { text: stripped, correction: cue } = stripInterjections(raw);
  const clause = moveLeadingTime(trimEnd(stripped), ctx.at, ctx.offset);
  const correction = sentenceCorrection || cue;
  const callMe = /^(?:[Pp]lease )?[Cc]all me ([A-Z][\p{Ll}'-]+)$/u.exec(clause);
  if (callMe) {
    return {
      content: finishSentence(`${ctx.subject.name} prefers to be called ${callMe[1]}`),
      category: 'preference',
      boost: 0,
      validFrom: ctx.at,
    };
  }
  if (!clauseGuards(clause)) return null;
  const remind = /^(?:please )?remind me to (.+)$/i.exec(clause);
  if (remind) {
    if (!objectOk(remind[1]) || DEMONSTRATIVE.test(remind[1])) return null;
    const task: RuleMatch = { rule: 'remind', category: 'task', tense: 'future' };
    const dated = withDates(remind[1], task, ctx);
    if (!dated) return null;
    return {
      content: finishSentence(`${ctx.subject.name} asked to be reminded to ${convertPronouns(dated.text)}`),
      category: 'task',
      boost: 0,
      validFrom: ctx.at,
    };
  }
  const compound = COMPOUND_SUBJECT.exec(clause) ?? ME_AND_MY.exec(clause);
  if (compound) return fromCompound(compound[1], compound[2], ctx, correction);
  const iClause = /^I (.+)$/.exec(clause);
  if (iClause) return fromIClause(iClause[1], ctx, correction);
  const myClause = /^[Mm]y (.+)$/.exec(clause);
  if (myClause) return fromMyClause(myClause[1], ctx, correction);
  return null;
}

/**
 * Rule-based fact extraction from the user's own first-person statements:
 * identity, preferences, relationships, dated plans and events, decisions,
 * corrections. Each fact is a standalone third-person sentence ("Ada loves
 * hiking.", "The user's sister Emma is a doctor."), relative dates made absolute
 * against the stating message's own date ("tomorrow" on 2026-02-22 → "on
 * 2026-02-23"). Assistant, system and tool messages, questions, greetings and
 * filler, hypotheticals, jokes, statements addressed to the assistant, negated
 * wishes and secrets yield nothing. English only; other languages yield nothing.
 * Deterministic; the same fact stated twice is returned once with both sources.
 */
export function extractFacts(
  messages: readonly FactSourceMessage[],
  options: ExtractFactsOptions = {},
): ExtractedFact[] {
  const language = (options.language ?? 'en').toLowerCase();
  if (!/^en\b/.test(language)) return [];
  const subject = subjectFor(options.userName);
  const offset = options.timezoneOffsetMinutes ?? 0;
  const maxFacts = Math.max(0, options.maxFacts ?? 50);
  const facts: ExtractedFact[] = [];
  const byContent = new Map<string, ExtractedFact>();

  for (const message of messages) {
    if (message.role !== 'user' || !message.text) continue;
    if (!(message.at instanceof Date) || Number.isNaN(message.at.getTime())) continue;
    const text = speechOf(message.text);
    if (!looksLatin(text)) continue;
    const seen = new Set<string>();
    splitSentences(text, 'en').forEach((span, index) => {
      if (!FIRST_PERSON.test(span.text) || seen.has(span.text)) return;
      seen.add(span.text);
      const sentence = normalizeFirstPerson(span.text);
      if (sentence.includes('?') || sentence.length > 400 || JOKING.test(sentence)) return;
      const { text: opened, correction } = stripInterjections(sentence);
      if (!opened || QUESTION_START.test(opened) || SUBORDINATE_START.test(opened)) return;
      const ctx: Context = { subject, at: message.at, offset, firstSentence: index === 0 };
      for (const clause of splitClauses(joinLeadingTime(opened, message.at, offset))) {
        const draft = factsOfClause(clause, ctx, correction);
        if (!draft || draft.content.length < 8 || draft.content.length > 300) continue;
        const key = draft.content.toLowerCase();
        const existing = byContent.get(key);
        if (existing) {
          if (!existing.sourceMessageIds.includes(message.id)) existing.sourceMessageIds.push(message.id);
          continue;
        }
        const fact: ExtractedFact = {
          content: draft.content,
          category: draft.category,
          importance: Math.min(10, Math.max(1, DEFAULT_IMPORTANCE[draft.category] + draft.boost)),
          sourceMessageIds: [message.id],
          validFrom: draft.validFrom,
        };
        byContent.set(key, fact);
        facts.push(fact);
      }
    });
  }
  return facts.slice(0, maxFacts);
}
