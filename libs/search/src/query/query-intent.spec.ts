import { asksForSeveral, roleOfQuery } from './query-intent';

describe('roleOfQuery', () => {
  it('reads a question in the first person as asking what the user said', () => {
    expect(roleOfQuery('What was my previous occupation?')).toBe('user');
    expect(roleOfQuery('Where did I meet Sophia?')).toBe('user');
    expect(roleOfQuery('Can you suggest some accessories for my phone?')).toBe('user');
    expect(roleOfQuery("What is the user's dog called?")).toBe('user');
  });

  it('reads "you told me" and its kin as asking what the assistant said', () => {
    expect(roleOfQuery('I remember you told me to dilute tea tree oil; with what?')).toBe('assistant');
    expect(roleOfQuery('In our previous chat, you suggested a few books. Which?')).toBe('assistant');
    expect(roleOfQuery('What did you recommend for Orlando?')).toBe('assistant');
    expect(roleOfQuery('What restaurant had the assistant recommended?')).toBe('assistant');
  });

  it('says nothing when the query names neither', () => {
    expect(roleOfQuery('What did Caroline research?')).toBeNull();
    expect(roleOfQuery('kubernetes deployment rollback')).toBeNull();
    // "I" inside a word is no pronoun.
    expect(roleOfQuery('Which city hosted the Olympics in 2012?')).toBeNull();
  });
});

describe('asksForSeveral', () => {
  it('hears a question that wants several answers', () => {
    expect(asksForSeveral('Which cities has John been to?')).toBe(true);
    expect(asksForSeveral('How many games has John mentioned winning?')).toBe(true);
    expect(asksForSeveral('What is the total distance I covered in my four road trips?')).toBe(true);
    expect(asksForSeveral('What kinds of art does Caroline make?')).toBe(true);
    expect(asksForSeveral('What books has Melanie read?')).toBe(true);
    expect(asksForSeveral('What subject have Caroline and Melanie both painted?')).toBe(true);
  });

  it('does not hear it in a question about one thing', () => {
    expect(asksForSeveral('What was my previous occupation?')).toBe(false);
    expect(asksForSeveral('Where did I meet Sophia?')).toBe(false);
    expect(asksForSeveral('When did Caroline go to the LGBTQ support group?')).toBe(false);
  });
});
