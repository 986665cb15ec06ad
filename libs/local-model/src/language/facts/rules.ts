import type { FactCategory } from '@engram/memory-core';
import {
  CONDITIONS,
  DEMONYMS,
  HABIT_VERBS,
  KIN,
  KIN_MODIFIERS,
  NOT_ROLES,
  PLAN_PROGRESSIVES,
  QUALIFIED_ROLES,
  ROLES,
  SCHEDULED,
  TRAITS,
} from './lexicon';

/**
 * The rules: which first-person statements are facts worth keeping, of which
 * category, and what each needs (a date, a tense). They are whitelists on
 * purpose: a statement no rule recognises yields nothing, because a wrong
 * memory costs more than a missed one.
 */

export type Tense = 'present' | 'past' | 'future';

export interface RuleMatch {
  rule: string;
  category: FactCategory;
  tense: Tense;
  /** Kept only when the clause names a date (plans, tasks, appointments). */
  needsDate?: boolean;
  /** Added to the category's default importance. */
  boost?: number;
  /** Append "(as of <message date>)": the statement ages ("for 5 years", "34 years old"). */
  asOf?: boolean;
  /** May contain "not", "never", "no". */
  allowsNegation?: boolean;
  /** Month-day dates without a year stay as written (birthdays recur). */
  keepYearless?: boolean;
  /** Replace the rewritten body (after the subject) with this. */
  body?: string;
}

function alternation(words: Iterable<string>): string {
  return [...words]
    .sort((a, b) => b.length - a.length)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|');
}

export const KIN_PATTERN = `(?:(?:${alternation(KIN_MODIFIERS)})\\s+){0,2}(?:${alternation(KIN)})`;
const KIN_RE = new RegExp(`^(${KIN_PATTERN})\\b`, 'i');
const NAME = `[A-Z][\\p{Ll}'’-]+`;

/** An object phrase is concrete enough to remember. */
export function objectOk(object: string): boolean {
  const o = object.trim().toLowerCase();
  if (!o) return false;
  if (o.split(/\s+/).length > 16) return false;
  if (
    /^(it|that|this|these|those|them|him|her|one|ones|some|any|what|which|how|so|such|too|very|more|less|most|both|either|neither|stuff|things?|something|anything|everything|nothing|a lot|lots|so much|that one|this one)\b/.test(
      o,
    )
  ) {
    return false;
  }
  if (
    /^the (idea|suggestion|answer|response|reply|code|result|results|solution|output|approach|example|plan|one|ones|first|second|third|last|above|below|following|latter|former|other|same|way|option|options|version|fix|change|changes|update|design|proposal|draft|summary|message|list|link|file|script|query|function|snippet|error|bug|issue|new one)\b/.test(
      o,
    )
  ) {
    return false;
  }
  return !/\b(to|for|with|at|in|of|on|about|from|by|and|or|but|the|a|an|my|their|as|like|than)$/.test(o);
}

/** The head noun of an "a/an …" phrase names a role or identity. */
export function isRolePhrase(phrase: string): { ok: boolean; kin: boolean } {
  const np = phrase
    .toLowerCase()
    .split(/\s+(?:at|for|in|from|with|of|on|by|who|that|and|but|since|based|working|living|,)\b|,/)[0]
    .trim();
  const words = np.split(/\s+/).filter(Boolean);
  if (words.length === 0 || words.length > 5) return { ok: false, kin: false };
  const head = words[words.length - 1].replace(/[^a-z'-]/g, '');
  const kin =
    /^(mom|mum|mother|dad|father|parent|grandmother|grandfather|grandparent|grandma|grandpa|wife|husband|stepmom|stepdad)$/.test(
      head,
    );
  if (NOT_ROLES.has(head)) return { ok: false, kin: false };
  if (QUALIFIED_ROLES.has(head))
    return {
      ok:
        words.length > 1 &&
        !/^(nice|good|bad|great|cool|lucky|happy|sad|big|little|old|young)$/.test(words[0]),
      kin: false,
    };
  if (ROLES.has(head) || TRAITS.has(head) || DEMONYMS.has(head)) return { ok: true, kin };
  const suffixRole = head.length >= 6 && /(er|or|ist|ian|eer|ant|ent|ess|ee)$/.test(head);
  return { ok: suffixRole, kin: false };
}

interface IRule {
  name: string;
  re: RegExp;
  match: Omit<RuleMatch, 'rule'>;
  /** Capture group holding the object phrase to vet with objectOk. */
  object?: number;
  check?: (m: RegExpExecArray) => boolean;
}

const r = (
  name: string,
  re: RegExp,
  match: Omit<RuleMatch, 'rule'>,
  object?: number,
  check?: (m: RegExpExecArray) => boolean,
): IRule => ({
  name,
  re,
  match,
  object,
  check,
});

const PREFERENCE: Omit<RuleMatch, 'rule'> = { category: 'preference', tense: 'present' };
const FACT: Omit<RuleMatch, 'rule'> = { category: 'fact', tense: 'present' };
const PAST_EVENT: Omit<RuleMatch, 'rule'> = { category: 'event', tense: 'past' };
const PLAN: Omit<RuleMatch, 'rule'> = { category: 'event', tense: 'future', needsDate: true };
const TASK: Omit<RuleMatch, 'rule'> = { category: 'task', tense: 'future', needsDate: true };

const NUMBER_WORD = '(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\\d+|no|twin)';
const JOINED_BLOCK =
  /^the (call|meeting|chat|channel|server|zoom|stream|session|conversation|discussion|thread|queue|game|lobby|room|repo|repository|project|branch)\b/;
const EVENT_OBJECT_BLOCK =
  /^(bed|sleep|work|school|class|lunch|dinner|breakfast|the (bathroom|toilet|store|shop|kitchen|office|gym|docs|documentation|page|link|settings))\b/;

/** Rules for "I …" clauses, tried in order on the body after "I" and its adverbs (lower case). */
const I_RULES: IRule[] = [
  // Decisions.
  r(
    'decision',
    /^(?:have )?(?:decided|chosen|settled)(?: (?:to|on|that|against))? (.+)$/,
    { category: 'decision', tense: 'past' },
    1,
  ),
  r(
    'decision',
    /^(?:chose|opted for|opted to|am going with|will go with|went with) (.+)$/,
    { category: 'decision', tense: 'present' },
    1,
  ),
  // Corrections stated as change.
  r(
    'no-longer-do',
    /^do not (?:live|work|eat|drink|smoke|use|play|own|speak|drive|teach|study|have) (.+?) any ?more$/,
    { category: 'correction', tense: 'present', allowsNegation: true },
    1,
  ),
  r(
    'no-longer-be',
    /^am not (.+?) any ?more$/,
    { category: 'correction', tense: 'present', allowsNegation: true },
    1,
  ),
  // Preferences.
  r(
    'dislike',
    /^(?:cannot stand|can not stand|do not like|do not enjoy|do not care for|am not a fan of|am not into) (.+)$/,
    { ...PREFERENCE, allowsNegation: true },
    1,
  ),
  r(
    'fan',
    /^am (?:a |an )?(?:big |huge |massive |great |die-hard )?(?:fan of|into|obsessed with|passionate about|crazy about|addicted to|a sucker for) (.+)$/,
    PREFERENCE,
    1,
  ),
  r(
    'not-a-morning-person',
    /^am not (?:a |an )(morning person|night owl|early bird|night person|people person|dog person|cat person)$/,
    { ...PREFERENCE, allowsNegation: true },
  ),
  r(
    'like',
    /^(?:love|like|enjoy|adore|prefer|hate|dislike|detest|loathe|despise) (.+)$/,
    PREFERENCE,
    1,
    (m) =>
      !/^(to (ask|know|see|get|have|check|make sure|confirm|add|clarify|say|mention|point out|share|thank|request))\b/.test(
        m[1],
      ),
  ),
  // Identity.
  r(
    'age',
    /^am (\d{1,3})(?: years old| yrs old| y\.?o\.?)?$/,
    { ...FACT, asOf: true },
    undefined,
    (m) => Number(m[1]) > 0 && Number(m[1]) < 120,
  ),
  r('from', /^am (?:originally )?from (.+)$/, FACT, 1),
  r('married-to', /^am (?:married|engaged) to (.+)$/, { category: 'relationship', tense: 'present' }, 1),
  r(
    'dating',
    /^am (?:dating|in a relationship with) (.+)$/,
    { category: 'relationship', tense: 'present' },
    1,
  ),
  r(
    'allergy',
    /^am (?:(?:very|severely|highly|mildly|deathly) )?allergic to (.+)$/,
    { ...FACT, boost: 2 },
    1,
  ),
  r('intolerant', /^am (?:lactose|gluten|fructose|histamine) intolerant\b/, { ...FACT, boost: 1 }),
  r(
    'trait',
    /^am (?:(?:also|now) )?(?:not )?([a-z-]+)(?: (?:and|&) ([a-z-]+))?$/,
    { ...FACT, allowsNegation: true },
    undefined,
    (m) => (TRAITS.has(m[1]) || DEMONYMS.has(m[1])) && (!m[2] || TRAITS.has(m[2]) || DEMONYMS.has(m[2])),
  ),
  r('demonym-phrase', /^am (?:half[- ])?([a-z]+)(?: and (?:half[- ])?[a-z]+)?$/, FACT, undefined, (m) =>
    DEMONYMS.has(m[1]),
  ),
  r('role', /^am (?:a|an) (.+)$/, FACT, 1, (m) => isRolePhrase(m[1]).ok),
  r(
    'role-was',
    /^(?:have been|used to be|was) (?:a|an) (.+)$/,
    { ...FACT, tense: 'past' },
    1,
    (m) => isRolePhrase(m[1]).ok,
  ),
  r(
    'lives',
    /^(?:am )?(?:live|living|based|located|reside|residing) (?:in|near|at|on|outside|outside of|close to|with) (.+)$/,
    FACT,
    1,
  ),
  r('lived-for', /^(?:have lived|have been living) (?:in|near|at|with) (.+)$/, { ...FACT, asOf: true }, 1),
  r(
    'works',
    /^(?:work (?:at|for|as|in|from|with|on|by)|am (?:working|employed) (?:at|for|as|by)) (.+)$/,
    FACT,
    1,
    (m) =>
      !/^(it|this|that|a bug|the bug|an issue|the issue|a fix|a feature|a project|my project|some)\b/.test(
        m[1],
      ),
  ),
  r('worked-for', /^(?:have been working|have worked) (?:at|for|as|in) (.+)$/, { ...FACT, asOf: true }, 1),
  r(
    'studies',
    /^(?:study|am studying|major in|am majoring in|majored in|teach|am teaching|am learning|have been learning|am training for|am a student at) (.+)$/,
    FACT,
    1,
  ),
  r('speaks', /^speak (.+)$/, FACT, 1),
  r('born', /^(?:grew up|was born|was raised) (.+)$/, { ...FACT, tense: 'past', keepYearless: true }, 1),
  r('owns', /^(?:own|drive|ride) (?:a|an|two|three|four|\d+|my) (.+)$/, FACT, 1),
  r('plays', /^play (.+)$/, FACT, 1, (m) => !/^(around|with|along|it|this|that)\b/.test(m[1])),
  r(
    'uses',
    /^use (.+)$/,
    PREFERENCE,
    1,
    (m) => !/^(it|this|that|the following|following|your|a lot)\b/.test(m[1]),
  ),
  r(
    'used-to',
    /^used to (?:live|work|study|play|be|own|have|speak|teach|run|smoke|drink|go) (.+)$/,
    { ...FACT, tense: 'past' },
    1,
  ),
  r(
    'never',
    /^have (?:never|not ever) (?:been to|visited|tried|seen|eaten|played|read|watched|driven|flown) (.+)$/,
    { ...FACT, asOf: true, allowsNegation: true },
    1,
  ),
  r('have-kin', new RegExp(`^have ${NUMBER_WORD} (?:[a-z'-]+ ){0,2}?(?:${alternation(KIN)})\\b(.*)$`), {
    category: 'relationship',
    tense: 'present',
    allowsNegation: true,
  }),
  r(
    'have-condition',
    new RegExp(`^have (?:a |an )?(?:[a-z'-]+ ){0,2}?(?:${alternation(CONDITIONS)})\\b(.*)$`),
    { ...FACT, boost: 2 },
  ),
  r(
    'have-scheduled',
    new RegExp(`^have (?:a|an|my|the|another) (?:[a-z'-]+ ){0,3}?(?:${alternation(SCHEDULED)})\\b(.*)$`),
    PLAN,
  ),
  // Habits.
  r(
    'habit',
    new RegExp(
      `^(?:${alternation(HABIT_VERBS)}) (.+) (?:every (?:day|morning|evening|night|week|weekend|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|daily|weekly|on weekends|(?:once|twice|three times) a (?:day|week|month))$`,
    ),
    { category: 'general', tense: 'present' },
    1,
  ),
  // Past events.
  r(
    'went',
    /^(?:went|travelled|traveled|flew|drove|moved|relocated|returned|came back|got back|emigrated) (?:to|from|back to|back from|home to|abroad to|in with|out of|into|away to) (.+)$/,
    PAST_EVENT,
    1,
    (m) => !EVENT_OBJECT_BLOCK.test(m[1]),
  ),
  r(
    'went-activity',
    /^went ((?:skiing|snowboarding|hiking|camping|fishing|surfing|sailing|diving|scuba diving|climbing|kayaking|backpacking|skydiving|on (?:a |an |my |our )?(?:trip|vacation|holiday|honeymoon|date|first date|cruise|road trip|retreat|safari))\b.*)$/,
    PAST_EVENT,
    1,
  ),
  r('visited', /^visited (.+)$/, PAST_EVENT, 1),
  r(
    'started',
    /^(?:started|began) ((?:a |an |my |working|learning|studying|taking|going|dating|at |as |training|running|playing|writing|volunteering|teaching|therapy|college|university|school|grad school|med school|law school|to learn|to study)(?:.*))$/,
    PAST_EVENT,
    1,
  ),
  r(
    'life-event',
    /^(adopted|bought|purchased|sold|won|founded|co-founded|launched|published|joined|enrolled in|signed up for|graduated|retired|married|celebrated|proposed to|gave birth to|gave birth|welcomed) ?(.*)$/,
    PAST_EVENT,
    2,
    (m) =>
      m[2] === ''
        ? /^(graduated|retired|gave birth|proposed)$/.test(m[1])
        : !EVENT_OBJECT_BLOCK.test(m[2]) && !JOINED_BLOCK.test(m[2]),
  ),
  r(
    'got',
    /^got (married|engaged|divorced|promoted|hired|fired|laid off|accepted|the (?:job|offer|promotion|scholarship|internship|apartment|house)|a (?:new )?(?:job|dog|cat|puppy|kitten|car|house|apartment|flat|tattoo|degree|diploma|promotion|offer|scholarship|bike|motorcycle)|my (?:first |new )?(?:job|dog|cat|puppy|kitten|car|house|apartment|flat|tattoo|degree|diploma|license|licence|driver's license|phd|masters|master's)|an? (?:offer|internship|apprenticeship))\b(.*)$/,
    PAST_EVENT,
  ),
  r('turned', /^turned (\d{1,3})\b(.*)$/, PAST_EVENT),
  r(
    'had',
    /^had (?:a baby|twins|a (?:baby )?(?:boy|girl)|surgery|an operation|a (?:job )?interview|my (?:first )?(?:baby|interview|surgery|operation))\b(.*)$/,
    PAST_EVENT,
  ),
  r(
    'lost',
    /^lost my (?:job|dad|mom|mum|mother|father|grandma|grandmother|grandfather|grandpa|dog|cat|wallet|phone|keys|passport|husband|wife|partner|brother|sister)\b(.*)$/,
    PAST_EVENT,
  ),
  r(
    'passed',
    /^passed (?:my|the|a|an) (?:[a-z'-]+ ){0,3}(?:exam|test|bar|boards|certification|interview)\b(.*)$/,
    PAST_EVENT,
  ),
  r(
    'finished',
    /^(?:finished|completed) (?:my|a|an|the) (?:[a-z'-]+ ){0,2}(?:degree|thesis|dissertation|marathon|course|training|book|novel|phd|masters|master's|bachelor's|program|programme|residency|internship|apprenticeship|bootcamp)\b(.*)$/,
    PAST_EVENT,
  ),
  r(
    'ran',
    /^ran (?:a|my first|the) (?:[a-z'-]+ )?(?:half[- ]?marathon|marathon|race|5k|10k|ultra|ultramarathon|triathlon)\b(.*)$/,
    PAST_EVENT,
  ),
  r(
    'broke',
    /^broke my (?:leg|arm|wrist|ankle|foot|hand|finger|toe|nose|collarbone|hip|rib|ribs)\b(.*)$/,
    PAST_EVENT,
  ),
  r('quit', /^quit (?:my job|smoking|drinking|my|the job)\b(.*)$/, PAST_EVENT),
  r('left-job', /^left (?:my (?:job|company|position|role)|[A-Z]\w+)\b(.*)$/, PAST_EVENT),
  r(
    'met',
    /^met (?:my (?:wife|husband|partner|boyfriend|girlfriend|fiance|fiancée|fiancé)|[A-Z][a-z]+)\b(.*)$/,
    PAST_EVENT,
  ),
  // Plans and tasks: only with a date.
  r(
    'will',
    /^will (?!not\b)(?!(?:try|check|see|look|think|consider|wait|let|get back|keep|make sure|be back|be right back|do my best|have a look)\b)(.+)$/,
    PLAN,
    1,
  ),
  r(
    'going-to',
    /^am (?:going to|planning to|planning on|scheduled to|set to|due to) (.+)$/,
    PLAN,
    1,
    (m) => !/^(try|check|see|look|think|ask|need|have to|be)\b/.test(m[1]),
  ),
  r('plan-to', /^(?:plan to|intend to|am intending to|expect to|am expecting to) (.+)$/, PLAN, 1),
  r(
    'progressive-plan',
    new RegExp(`^am (?:${alternation(PLAN_PROGRESSIVES)}) (.+)$`),
    PLAN,
    1,
    (m) => !/^(to (try|check|see|look|ask))\b/.test(m[1]),
  ),
  r(
    'scheduled-present',
    /^(?:start|begin|fly|leave|move|travel|arrive|return|graduate|retire|get married|go on) (.+)$/,
    PLAN,
    1,
  ),
  r('task', /^(?:need to|have to|have got to|must|got to) (.+)$/, TASK, 1),
];

/** Body of an "I …" clause → the rule it satisfies, if any. */
export function matchIClause(body: string): RuleMatch | null {
  const lower = body.toLowerCase();
  for (const rule of I_RULES) {
    const m = rule.re.exec(lower);
    if (!m) continue;
    if (rule.object !== undefined && !objectOk(m[rule.object] ?? '')) continue;
    if (rule.check && !rule.check(m)) continue;
    const match: RuleMatch = { rule: rule.name, ...rule.match };
    if (rule.name === 'role' && isRolePhrase(m[1]).kin) match.category = 'relationship';
    if (rule.name === 'age') match.body = `is ${m[1]} years old`;
    return match;
  }
  return null;
}

/** Whether the habitual adverbs of a clause make its present verb a habit ("I usually run at 6"). */
export function matchHabit(adverbs: readonly string[], body: string): RuleMatch | null {
  if (
    !adverbs.some((adverb) => /^(usually|always|often|normally|typically|generally|sometimes)$/i.test(adverb))
  )
    return null;
  const [verb, ...rest] = body.toLowerCase().split(' ');
  if (!HABIT_VERBS.has(verb) || !objectOk(rest.join(' '))) return null;
  return { rule: 'habit', category: 'general', tense: 'present' };
}

/** "I'm Ada": a name introduction, in the message's first sentence only. */
export function matchNameIntroduction(body: string): string | null {
  const m = new RegExp(`^am (${NAME}(?: ${NAME})?)$`, 'u').exec(body);
  if (!m) return null;
  const first = m[1].split(' ')[0].toLowerCase();
  if (TRAITS.has(first) || DEMONYMS.has(first) || ROLES.has(first)) return null;
  if (
    /^(fine|good|ok|okay|back|here|there|sorry|sure|ready|done|new|lost|tired|busy|home|great|well|glad|happy|not|so|very|just|also|still|really|confused|curious|interested|excited|alive|free|late|early|afraid|aware|going|trying|looking|working|using)$/.test(
      first,
    )
  ) {
    return null;
  }
  return m[1];
}

/** "my …" clauses (the body after "my"). Rendering is done by the caller with the possessive. */
export interface MyMatch extends RuleMatch {
  /** A fixed sentence (without the subject) that replaces the default "<Subject's> <body>". */
  sentence?: (possessive: string, subjectName: string) => string;
}

const ATTRIBUTES =
  'email|email address|e-mail|e-mail address|phone number|phone|mobile number|address|home address|birthday|birth date|date of birth|pronouns|time zone|timezone|hometown|home town|native language|first language|mother tongue|job|occupation|profession|job title|title|role|company|employer|username|user name|handle|github|github username|github handle|website|blog|major|degree|diet|blood type|height|star sign|zodiac sign|team|department|age|religion|nationality|full name|last name|surname|first name|middle name|nickname|maiden name';

const REL_FACT_PREDICATES: RegExp[] = [
  /^(?:is|was|are|were) (?:called|named) /,
  /^(?:is|are) \d{1,3}(?: years old)?$/,
  /^(?:lives?|lived|works?|worked|stud(?:ies|y)|studied|teach(?:es)?|taught|(?:is|are) (?:studying|working|based)) (?:in|at|for|as|near|with|on) /,
  /^(?:is|was|are|were) (?:from|based in|married|engaged|pregnant|retired|allergic to|vegetarian|vegan|divorced|single|a twin|twins)\b/,
  /^(?:loves?|likes?|hates?|enjoys?|prefers?|adores?) /,
  /^(?:speaks?|plays?|owns?|drives?) /,
];
const REL_PAST_EVENTS =
  /^(?:just )?(?:had|got|started|moved|graduated|passed away|died|was born|adopted|retired|turned \d+|won|joined|bought|lost|broke|gave birth)\b/;
const REL_PLANS =
  /^(?:is|are) (?:coming|visiting|arriving|flying|moving|getting married|having|starting|going|graduating|retiring|turning)\b|^(?:will|arrives|comes|visits|turns)\b/;

export function matchMyClause(body: string): MyMatch | null {
  const lower = body.toLowerCase();

  const name = /^name is ((?:\p{L}[\p{L}'’-]*)(?: \p{L}[\p{L}'’-]*){0,3})$/u.exec(body);
  if (name) {
    const proper = name[1]
      .split(' ')
      .map((word) => word[0].toUpperCase() + word.slice(1))
      .join(' ');
    return {
      rule: 'name',
      category: 'fact',
      tense: 'present',
      boost: 2,
      sentence: () => `The user's name is ${proper}`,
    };
  }
  const favourite = /^(?:favou?rite|fave|fav) ([\w' -]{1,40}?) (?:is|are) (.+)$/i.exec(body);
  if (favourite && objectOk(favourite[2]))
    return { rule: 'favourite', category: 'preference', tense: 'present' };
  const attribute = new RegExp(`^(${ATTRIBUTES}) (?:is|are) (.+)$`, 'i').exec(body);
  if (attribute && objectOk(attribute[2])) {
    const kind = attribute[1].toLowerCase();
    return {
      rule: 'attribute',
      category: 'fact',
      tense: 'present',
      keepYearless: /birth/.test(kind),
      boost: kind.includes('name') ? 1 : 0,
    };
  }
  const occasion =
    /^((?:[\w'-]+ ){0,2}?(?:wedding|due date|surgery|operation|interview|flight|exam|graduation|appointment|trip|vacation|holiday|moving date|start date|first day|last day|party|concert|deadline|anniversary|birthday party)) (?:is|will be) (.+)$/i.exec(
      body,
    );
  if (occasion && !/^(code|build|test|pr|deploy)/i.test(occasion[1])) {
    return {
      rule: 'occasion',
      category: 'event',
      tense: 'future',
      needsDate: true,
      keepYearless: /anniversary/i.test(occasion[1]),
    };
  }
  const goal =
    /^(?:goal|dream|ambition|big goal|resolution|new year's resolution)(?: for [\w ]+)? is to (.+)$/i.exec(
      body,
    );
  if (goal && objectOk(goal[1])) return { rule: 'goal', category: 'general', tense: 'present' };

  const kin = KIN_RE.exec(body);
  if (!kin) return null;
  const kinPhrase = kin[1];
  let rest = body.slice(kinPhrase.length).replace(/^,\s*/, ' ').trim();
  const kinName = new RegExp(`^(${NAME}(?: ${NAME})?)(?:,)?(?:\\s+|$)`, 'u').exec(rest);
  const personName = kinName ? kinName[1] : null;
  if (kinName) rest = rest.slice(kinName[0].length).trim();
  const restLower = rest.toLowerCase();

  const kinsName = /^'s name is (\p{L}[\p{L}'’-]*(?: \p{L}[\p{L}'’-]*)?)$/u.exec(rest);
  if (kinsName) return { rule: 'kin-name', category: 'relationship', tense: 'present' };
  if (!personName && new RegExp(`^(?:is|was) ${NAME}(?: ${NAME})?$`, 'u').test(rest)) {
    return { rule: 'kin-is-name', category: 'relationship', tense: 'present' };
  }
  if (REL_PLANS.test(restLower))
    return { rule: 'kin-plan', category: 'event', tense: 'future', needsDate: true };
  if (REL_PAST_EVENTS.test(restLower))
    return { rule: 'kin-event', category: 'event', tense: 'past', keepYearless: /born/.test(restLower) };
  const roleMatch = /^(?:is|was) (?:a|an) (.+)$/.exec(restLower);
  if ((roleMatch && isRolePhrase(roleMatch[1]).ok) || REL_FACT_PREDICATES.some((re) => re.test(restLower))) {
    const objectPart = restLower.split(' ').slice(1).join(' ');
    if (objectOk(objectPart) || /^is \d/.test(restLower)) {
      return { rule: 'kin-fact', category: 'relationship', tense: 'present', asOf: /^is \d/.test(restLower) };
    }
  }
  // "My sister Emma …" with a predicate no rule knows: keep only that she exists.
  if (personName && !/s$/i.test(kinPhrase) && !lower.startsWith('ex ')) {
    const phrase = kinPhrase.toLowerCase();
    const article = /^[aeiou]/.test(phrase) ? 'an' : 'a';
    return {
      rule: 'kin-named',
      category: 'relationship',
      tense: 'present',
      sentence: (_possessive, subjectName) => `${subjectName} has ${article} ${phrase} named ${personName}`,
    };
  }
  return null;
}

/** Splits "my wife Sarah and I" style subjects: the kin phrase (and name) before "and I". */
export const COMPOUND_SUBJECT = new RegExp(
  `^(?:[Mm]y|[Mm]e and my) (${KIN_PATTERN}(?: ${NAME})?) and I (.+)$`,
  'u',
);
/** "Me and my brother went skiing". */
export const ME_AND_MY = new RegExp(`^[Mm]e and my (${KIN_PATTERN}(?: ${NAME})?) (.+)$`, 'u');
