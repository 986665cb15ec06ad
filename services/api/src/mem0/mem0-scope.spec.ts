import { ApiProblem } from '../http/problem';
import { entityAgent } from '@engram/memory-core';
import { mem0Scope } from './mem0-scope';

const problemsOf = (filters: unknown) => {
  try {
    mem0Scope(filters, { requireEntity: true });
  } catch (error) {
    return (error as ApiProblem).errors?.map((e) => e.field);
  }
  throw new Error('accepted');
};

describe('mem0Scope', () => {
  it('maps a user onto its agent and echoes the id as given', () => {
    expect(mem0Scope({ user_id: 'alice@example.com' }, { requireEntity: true })).toEqual({
      agents: [entityAgent('alice@example.com')],
      echo: { userId: 'alice@example.com' },
    });
  });

  it('takes the user as the owner when user and agent are both named (AND)', () => {
    const scope = mem0Scope({ AND: [{ user_id: 'alice' }, { agent_id: 'bot' }] }, { requireEntity: true });
    expect(scope.agents).toEqual(['alice']);
    expect(scope.echo).toEqual({ userId: 'alice', agentId: 'bot' });
  });

  it('joins the entities of an OR', () => {
    expect(
      mem0Scope(
        { OR: [{ user_id: 'alice' }, { user_id: 'bob' }, { agent_id: 'bot' }] },
        { requireEntity: true },
      ).agents,
    ).toEqual(['alice', 'bob', 'bot']);
  });

  it('narrows by time and category, and "*" names every entity', () => {
    const scope = mem0Scope(
      {
        AND: [{ user_id: '*' }, { created_at: { gte: '2026-01-01T00:00:00Z', lt: '2026-02-01' } }],
        categories: { in: ['preference'] },
      },
      { requireEntity: true },
    );
    expect(scope.agents).toBeUndefined();
    expect(scope.from).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(scope.to).toEqual(new Date('2026-02-01'));
    expect(scope.categories).toEqual(['preference']);
  });

  it('refuses, field by field, what it cannot answer', () => {
    expect(problemsOf({})).toEqual(['filters']);
    expect(problemsOf({ user_id: 'a', colour: 'red' })).toEqual(['filters.colour']);
    expect(problemsOf({ user_id: 7 })).toEqual(['filters.user_id']);
    expect(problemsOf({ user_id: 'a', created_at: { gte: 'not a date' } })).toEqual([
      'filters.created_at.gte',
    ]);
    expect(problemsOf({ OR: [{ user_id: 'a' }, { run_id: 'r' }] })).toEqual(['filters.OR']);
    expect(problemsOf({ AND: 'x' })).toEqual(['filters.AND']);
    expect(problemsOf([1])).toEqual(['filters']);
  });

  it('reads metadata conditions as an object the memories must contain, AND adding them up', () => {
    const scope = mem0Scope(
      {
        AND: [
          { user_id: 'a' },
          { metadata: { source: 'crm' } },
          { metadata: { tier: { eq: 2 }, tags: ['x'] } },
        ],
      },
      { requireEntity: true },
    );
    expect(scope.metadata).toEqual({ source: 'crm', tier: 2, tags: ['x'] });
    expect(mem0Scope({ user_id: 'a', metadata: {} }, { requireEntity: true }).metadata).toBeUndefined();
  });

  it('refuses metadata comparisons it cannot make, contradictions, and metadata in an OR', () => {
    expect(problemsOf({ user_id: 'a', metadata: { tier: { gt: 1 } } })).toEqual(['filters.metadata.tier']);
    expect(problemsOf({ user_id: 'a', metadata: 'crm' })).toEqual(['filters.metadata']);
    expect(
      problemsOf({
        AND: [{ user_id: 'a' }, { metadata: { source: 'crm' } }, { metadata: { source: 'chat' } }],
      }),
    ).toEqual(['filters.AND[2].metadata.source']);
    expect(problemsOf({ OR: [{ user_id: 'a', metadata: { source: 'crm' } }, { user_id: 'b' }] })).toEqual([
      'filters.OR',
    ]);
  });
});
