import {
  convertPronouns,
  finishSentence,
  normalizeFirstPerson,
  rewriteFirstPersonClause,
  subjectFor,
  thirdPersonVerb,
} from './rewrite';

describe('normalizeFirstPerson', () => {
  it('expands contractions, chat spellings and curly quotes', () => {
    expect(normalizeFirstPerson("i’m sure i'll go, I can't wait and I don't mind, gonna be fun")).toBe(
      'I am sure I will go, I cannot wait and I do not mind, going to be fun',
    );
    expect(normalizeFirstPerson('im a teacher')).toBe('I am a teacher');
    expect(normalizeFirstPerson("my name's Ada")).toBe('my name is Ada');
  });
});

describe('thirdPersonVerb', () => {
  it.each([
    ['love', 'loves'],
    ['am', 'is'],
    ['have', 'has'],
    ['do', 'does'],
    ['go', 'goes'],
    ['watch', 'watches'],
    ['study', 'studies'],
    ['play', 'plays'],
    ['need', 'needs'],
    ['moved', 'moved'],
    ['went', 'went'],
    ['will', 'will'],
    ['cannot', 'cannot'],
  ])('%s → %s', (verb, expected) => {
    expect(thirdPersonVerb(verb)).toBe(expected);
  });
});

describe('convertPronouns', () => {
  it('turns first-person words into singular they', () => {
    expect(convertPronouns('with my wife and me, by myself, and mine; I am happy when I run')).toBe(
      'with their wife and them, by themselves, and theirs; they are happy when they run',
    );
  });

  it('leaves the country US alone', () => {
    expect(convertPronouns('moved to the US with us')).toBe('moved to the US with them');
  });
});

describe('rewriteFirstPersonClause', () => {
  it('uses the name when known, "The user" otherwise', () => {
    expect(rewriteFirstPersonClause(subjectFor('Ada'), [], 'love hiking with my dog', false)).toBe(
      'Ada loves hiking with their dog',
    );
    expect(rewriteFirstPersonClause(subjectFor(undefined), ['really'], 'love hiking', false)).toBe(
      'The user really loves hiking',
    );
  });

  it('drops adverbs about the telling and keeps past forms', () => {
    expect(rewriteFirstPersonClause(subjectFor(null), ['actually', 'just'], 'read the book', true)).toBe(
      'The user read the book',
    );
    expect(rewriteFirstPersonClause(subjectFor(null), [], 'have been a nurse', true)).toBe(
      'The user has been a nurse',
    );
  });
});

describe('finishSentence', () => {
  it('capitalises, ends with one full stop and sheds chat tails', () => {
    expect(finishSentence('the user loves hiking too!! 😀')).toBe('The user loves hiking.');
    expect(finishSentence('the user loves hiking lol :)')).toBe('The user loves hiking.');
    expect(finishSentence('the user works at HP')).toBe('The user works at HP.');
    expect(finishSentence('  ')).toBe('');
  });
});
