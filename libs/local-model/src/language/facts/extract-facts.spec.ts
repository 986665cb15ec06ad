import { DEFAULT_IMPORTANCE } from '@engram/memory-core';
import { extractFacts, type ExtractFactsOptions, type FactSourceMessage } from './extract-facts';

// Sunday 2026-02-22.
const at = new Date('2026-02-22T10:00:00Z');
let counter = 0;

function user(text: string, when: Date = at): FactSourceMessage {
  counter += 1;
  return { id: `m${counter}`, role: 'user', author: 'opus', text, at: when };
}

function facts(text: string, options: ExtractFactsOptions = {}) {
  return extractFacts([user(text)], options);
}

function contents(text: string, options: ExtractFactsOptions = {}): string[] {
  return facts(text, options).map((fact) => fact.content);
}

describe('extractFacts: what it finds', () => {
  it.each([
    // identity
    ["I'm a nurse.", 'The user is a nurse.', 'fact'],
    ['My name is Ada.', "The user's name is Ada.", 'fact'],
    ["Hi, I'm Ada!", "The user's name is Ada.", 'fact'],
    ['I live in Lisbon.', 'The user lives in Lisbon.', 'fact'],
    ['I work at Google as a software engineer.', 'The user works at Google as a software engineer.', 'fact'],
    ["I'm originally from Kenya.", 'The user is originally from Kenya.', 'fact'],
    ["I'm allergic to peanuts.", 'The user is allergic to peanuts.', 'fact'],
    ["I'm vegetarian.", 'The user is vegetarian.', 'fact'],
    ['I speak Portuguese and English.', 'The user speaks Portuguese and English.', 'fact'],
    // preferences
    ['I love hiking.', 'The user loves hiking.', 'preference'],
    ['I prefer tea over coffee.', 'The user prefers tea over coffee.', 'preference'],
    ['I hate running.', 'The user hates running.', 'preference'],
    ["I can't stand cilantro.", 'The user cannot stand cilantro.', 'preference'],
    ["I don't like horror movies.", 'The user does not like horror movies.', 'preference'],
    ['I enjoy reading sci-fi novels.', 'The user enjoys reading sci-fi novels.', 'preference'],
    ['My favourite color is blue.', "The user's favourite color is blue.", 'preference'],
    [
      'I prefer short answers in bullet points.',
      'The user prefers short answers in bullet points.',
      'preference',
    ],
    // relationships
    ['My sister Emma is a doctor.', "The user's sister Emma is a doctor.", 'relationship'],
    ['My husband is a chef.', "The user's husband is a chef.", 'relationship'],
    ['I have two kids.', 'The user has two kids.', 'relationship'],
    ['I have a dog named Rex.', 'The user has a dog named Rex.', 'relationship'],
    ["My sister's name is Emma.", "The user's sister's name is Emma.", 'relationship'],
    ['My cat Luna is sick.', 'The user has a cat named Luna.', 'relationship'],
    ["I'm married to Tom.", 'The user is married to Tom.', 'relationship'],
    // plans (with a date)
    ["I'm going to Paris tomorrow.", 'The user is going to Paris on 2026-02-23.', 'event'],
    ['I will fly to Tokyo next Friday.', 'The user will fly to Tokyo on 2026-02-27.', 'event'],
    ['I plan to run a marathon in June.', 'The user plans to run a marathon in 2026-06.', 'event'],
    [
      'I have a dentist appointment next Tuesday at 3pm.',
      'The user has a dentist appointment on 2026-02-24 at 15:00.',
      'event',
    ],
    ['Tomorrow I am flying to London.', 'The user is flying to London on 2026-02-23.', 'event'],
    // events
    ['I went to Paris last week.', 'The user went to Paris in the week of 2026-02-09.', 'event'],
    ['Last week, I went to Paris.', 'The user went to Paris in the week of 2026-02-09.', 'event'],
    [
      'I started a new job at Stripe last month.',
      'The user started a new job at Stripe in 2026-01.',
      'event',
    ],
    ['I adopted a cat yesterday.', 'The user adopted a cat on 2026-02-21.', 'event'],
    ['I just got engaged!', 'The user got engaged shortly before 2026-02-22.', 'event'],
    ['My wife and I moved to Lisbon last year.', 'The user and their wife moved to Lisbon in 2025.', 'event'],
    // decisions, tasks, habits
    ['I decided to learn Rust.', 'The user decided to learn Rust.', 'decision'],
    ['I need to submit the report by Friday.', 'The user needs to submit the report by 2026-02-27.', 'task'],
    ['Remind me to call mom tomorrow.', 'The user asked to be reminded to call mom on 2026-02-23.', 'task'],
    ['I usually wake up at 6am.', 'The user usually wakes up at 6am.', 'general'],
    // corrections
    ['Actually, I live in Porto, not Lisbon.', 'The user lives in Porto, not Lisbon.', 'correction'],
    ['I no longer work at Google.', 'The user no longer works at Google.', 'correction'],
    ["I don't eat meat anymore.", 'The user does not eat meat anymore.', 'correction'],
  ])('%j → %j (%s)', (text, expected, category) => {
    const found = facts(text);
    expect(found.map((fact) => fact.content)).toEqual([expected]);
    expect(found[0].category).toBe(category);
  });

  it('pins statements that age to the message date', () => {
    expect(contents("I'm 34.")).toEqual(['The user is 34 years old (as of 2026-02-22).']);
    expect(contents("I've been a nurse for 5 years.")).toEqual([
      'The user has been a nurse for 5 years (as of 2026-02-22).',
    ]);
  });

  it('keeps a birthday without inventing a year', () => {
    expect(contents('My birthday is March 3rd.')).toEqual(["The user's birthday is March 3rd."]);
  });
});

describe('extractFacts: third person', () => {
  it('uses the user name when known', () => {
    expect(contents('I love hiking.', { userName: 'Ada' })).toEqual(['Ada loves hiking.']);
    expect(contents('My sister Emma lives in Paris.', { userName: 'Ada' })).toEqual([
      "Ada's sister Emma lives in Paris.",
    ]);
  });

  it('turns every other first-person word into singular they', () => {
    expect(contents('I live with my girlfriend in Amsterdam.', { userName: 'Ada' })).toEqual([
      'Ada lives with their girlfriend in Amsterdam.',
    ]);
    expect(contents("I'm meeting my sister for lunch tomorrow.")).toEqual([
      'The user is meeting their sister for lunch on 2026-02-23.',
    ]);
  });

  it('splits clauses joined by "and I", "but I"', () => {
    expect(contents("I love hiking and I hate running. I'm from Brazil but I live in Canada.")).toEqual([
      'The user loves hiking.',
      'The user hates running.',
      'The user is from Brazil.',
      'The user lives in Canada.',
    ]);
  });
});

describe('extractFacts: relative dates against the message’s own date', () => {
  it('"tomorrow" in a message of 2026-02-22 is 2026-02-23', () => {
    const [fact] = facts('I am flying to Berlin tomorrow.');
    expect(fact.content).toBe('The user is flying to Berlin on 2026-02-23.');
  });

  it('uses each message’s own date, not today', () => {
    const found = extractFacts([user('I am flying to Berlin tomorrow.', new Date('2025-12-31T09:00:00Z'))]);
    expect(found[0].content).toBe('The user is flying to Berlin on 2026-01-01.');
  });

  it('"next Friday" and "last week"', () => {
    expect(contents('I will visit my parents next Friday.')).toEqual([
      'The user will visit their parents on 2026-02-27.',
    ]);
    expect(contents('I adopted a puppy last week.')).toEqual([
      'The user adopted a puppy in the week of 2026-02-09.',
    ]);
  });

  it('dates a past event from when it happened, anything else from when it was said', () => {
    expect(facts('I adopted a cat yesterday.')[0].validFrom?.toISOString()).toBe('2026-02-21T00:00:00.000Z');
    expect(facts('I live in Lisbon.')[0].validFrom).toEqual(at);
  });

  it('drops a plan without a date', () => {
    expect(contents("I'm going to buy a car.")).toEqual([]);
    expect(contents('I will call the bank.')).toEqual([]);
  });
});

describe('extractFacts: what it leaves out', () => {
  it.each([
    'Hello!',
    'Thanks so much!',
    'Good morning :)',
    'Do you like hiking?',
    'What is the weather like in Lisbon?',
    'Can I ask you something?',
    'I love hiking, do you?',
    "I'd love to visit Japan someday.",
    'If I were rich I would buy a boat.',
    "I don't want to go to Paris.",
    "I'm not going to the party tomorrow.",
    'I love it!',
    'I like your suggestion.',
    'I love you.',
    "I'm a bit confused.",
    "I'm tired.",
    "I'm getting an error when I run the build.",
    'I think I am a nurse.',
    "I'm trying to deploy the app.",
    'I need you to fix the build.',
    "I'm working on a bug in the parser.",
    'I ran the tests and they passed.',
    'I went through the logs.',
    'I joined the call late.',
    "I'll check it tomorrow.",
    'I will try that tomorrow.',
    'My password is hunter2.',
    'My code does not compile.',
    'My sister is annoying.',
    'We love hiking.',
    'I love it here.',
    'He said "I love pizza".',
    'When I was a kid I lived in Porto.',
    "I'm thinking about moving to Berlin.",
    'I want to learn Japanese.',
    'I hope to retire early.',
    'I have a question about the API.',
    'I was just kidding, I hate hiking.',
  ])('nothing from %j', (text) => {
    expect(contents(text)).toEqual([]);
  });

  it('ignores assistant, system and tool messages', () => {
    const roles = ['assistant', 'system', 'tool'];
    const found = extractFacts(
      roles.map((role, i) => ({ id: `a${i}`, role, text: 'I love hiking. I live in Lisbon.', at })),
    );
    expect(found).toEqual([]);
  });

  it('ignores code blocks and quoted lines inside a user message', () => {
    expect(contents('> I love PHP\n```\n// I live in Lisbon\n```\nI live in Porto.')).toEqual([
      'The user lives in Porto.',
    ]);
  });

  it('yields nothing for other languages rather than guessing', () => {
    expect(contents('Eu moro em Lisboa e adoro caminhadas.', { language: 'pt' })).toEqual([]);
    expect(contents('I love hiking.', { language: 'pt-BR' })).toEqual([]);
    expect(contents('我住在北京，我喜欢咖啡。')).toEqual([]);
    expect(contents('Eu moro em Lisboa.')).toEqual([]);
  });
});

describe('extractFacts: output', () => {
  it('uses the category default importance, raised for names and health', () => {
    const [preference] = facts('I love hiking.');
    expect(preference.importance).toBe(DEFAULT_IMPORTANCE.preference);
    const [name] = facts('My name is Ada.');
    expect(name.importance).toBe(DEFAULT_IMPORTANCE.fact + 2);
    const [allergy] = facts("I'm allergic to peanuts.");
    expect(allergy.importance).toBe(DEFAULT_IMPORTANCE.fact + 2);
    const [correction] = facts('I no longer work at Google.');
    expect(correction.importance).toBe(DEFAULT_IMPORTANCE.correction);
  });

  it('returns a fact stated twice once, with both sources, in message order', () => {
    const first = user('I live in Lisbon.');
    const second = user('I love hiking! Also, I live in Lisbon.');
    const found = extractFacts([first, second]);
    expect(found.map((fact) => fact.content)).toEqual([
      'The user lives in Lisbon.',
      'The user loves hiking.',
    ]);
    expect(found[0].sourceMessageIds).toEqual([first.id, second.id]);
    expect(found[1].sourceMessageIds).toEqual([second.id]);
  });

  it('stops at maxFacts', () => {
    expect(facts('I love hiking. I hate running. I live in Lisbon.', { maxFacts: 2 })).toHaveLength(2);
  });

  it('is deterministic', () => {
    const messages = [user('I moved to Porto last month and I love it. My dad Joe is a pilot.')];
    expect(extractFacts(messages)).toEqual(extractFacts(messages));
  });
});

describe('extractFacts: size', () => {
  it('reads a pasted document quickly and never a sentence cut in half', () => {
    const text = 'I love hiking. '.repeat(20_000) + 'I live in Lisbon.';
    const began = Date.now();
    const found = extractFacts([user(text)]);
    expect(Date.now() - began).toBeLessThan(5_000);
    expect(found.map((fact) => fact.content)).toEqual(['The user loves hiking.']);
  });
});
