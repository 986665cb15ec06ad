import { chooseCandidateTerms } from './candidate-terms';

describe('chooseCandidateTerms', () => {
  it('takes the rarest terms while their messages fit the budget', () => {
    expect(
      chooseCandidateTerms(
        [
          { lexeme: 'the', df: 900 },
          { lexeme: 'kubernet', df: 3 },
          { lexeme: 'pod', df: 40 },
        ],
        100,
      ),
    ).toEqual(['kubernet', 'pod']);
  });

  it('always keeps the rarest present term and terms no message has', () => {
    expect(
      chooseCandidateTerms(
        [
          { lexeme: 'tea', df: 0 },
          { lexeme: 'go', df: 5000 },
        ],
        100,
      ),
    ).toEqual(['tea', 'go']);
    expect(chooseCandidateTerms([], 100)).toEqual([]);
  });
});
