import type { SeededRandom } from './seeded-random';

const SUBJECTS = [
  'the deployment',
  'our staging cluster',
  'the invoice export',
  'my flight to Lisbon',
  'the quarterly report',
  'the onboarding flow',
  'the Postgres migration',
  'the customer in Hamburg',
  'the new pricing page',
  'the API gateway',
  'my dentist appointment',
  'the team offsite',
  'the search index',
  'the mobile release',
  'the budget spreadsheet',
  'the contract renewal',
  'the design review',
  'the nightly backup',
  'the support backlog',
  'the hiring plan',
];
const VERBS = [
  'needs',
  'keeps failing on',
  'depends on',
  'should move to',
  'was blocked by',
  'is waiting for',
  'has to include',
  'broke after',
  'could reuse',
  'is faster with',
  'conflicts with',
  'got approved after',
];
const OBJECTS = [
  'the retry logic',
  'a second reviewer',
  'the old credentials',
  'next Tuesday',
  'the vendor quote',
  'a smaller batch size',
  'the staging database',
  'an updated schema',
  'the legal sign-off',
  'the holiday schedule',
  'a cache in front of it',
  'the metrics dashboard',
  'the feature flag',
  'a rollback plan',
  'the travel budget',
  'the customer feedback',
];
const OPENERS = [
  'Can you check whether',
  'I think',
  'Quick question:',
  'Remind me why',
  'It looks like',
  'Yesterday I noticed that',
  'Please summarise why',
  'Do you remember if',
  'We agreed that',
  'Honestly,',
];
const ANSWERS = [
  'Here is what I found.',
  'Short answer: yes.',
  'That matches what we discussed last week.',
  'I checked the logs.',
  'There are two options.',
  'Good catch.',
  'Based on the notes so far,',
  'Let me break that down.',
];
const CLOSERS = [
  'Let me know if you want the details.',
  'I can draft a plan for it.',
  'Shall I open a ticket?',
  'That should take about an hour.',
  'I will keep an eye on it.',
  'Nothing else looks unusual.',
];

/** One plausible sentence about everyday work. */
export function sentence(random: SeededRandom, opener = false): string {
  const body = `${random.pick(SUBJECTS)} ${random.pick(VERBS)} ${random.pick(OBJECTS)}`;
  if (opener) return `${random.pick(OPENERS)} ${body}?`;
  const text = `${body}.`;
  return text[0]!.toUpperCase() + text.slice(1);
}

/** Prose of about `targetChars` characters (whole sentences, never shorter than one). */
export function prose(random: SeededRandom, targetChars: number, role: 'user' | 'assistant'): string {
  const parts = [role === 'user' ? sentence(random, true) : random.pick(ANSWERS)];
  let length = parts[0]!.length;
  while (length < targetChars) {
    const next = role === 'assistant' && random.chance(0.15) ? random.pick(CLOSERS) : sentence(random);
    parts.push(next);
    length += next.length + 1;
  }
  return parts.join(' ');
}

/**
 * A message length in characters between 50 and 600, skewed short as chat is:
 * most messages are a sentence or three, a few are long explanations.
 */
export function messageLength(random: SeededRandom, role: 'user' | 'assistant'): number {
  const skew = random.next() ** (role === 'user' ? 2.2 : 1.4);
  return Math.round(50 + skew * 550);
}

const FACTS = [
  ['user_preference', 'The user prefers short answers with bullet points'],
  ['user_preference', 'The user works in the Berlin office and starts at 8am'],
  ['project_context', 'The billing service is being migrated to Postgres 16'],
  ['project_context', 'Release 4.2 is planned for the end of the month'],
  ['sticky', 'The user is allergic to peanuts'],
  ['decision', 'We decided to keep the nightly backup at 2am UTC'],
  ['relationship', 'Maria is the user’s manager'],
  ['learned_pattern', 'Deploys on Fridays tend to need a rollback'],
] as const;

/** A [MEMORY:type] tag as an agent runtime writes it into an assistant message. */
export function memoryTag(random: SeededRandom, variant: number): string {
  const [type, content] = random.pick(FACTS);
  return `[MEMORY:${type}] ${content} (note ${variant}) [/MEMORY]`;
}
