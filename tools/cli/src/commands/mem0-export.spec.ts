import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { FactSchema } from '@engram/contracts';
import { mem0MemoryOf } from '@engram/memory-core';
import { mem0MemoryPlan } from './mem0-file';

describe('facts exported as mem0 memories', () => {
  const fact = create(FactSchema, {
    id: '42',
    firstId: '40',
    agent: 'alice',
    content: 'Is a vegetarian',
    category: 'preference',
    metadata: { source: 'onboarding', mem0_categories: ['food'] },
    createdAt: timestampFromDate(new Date('2025-03-02T17:15:31Z')),
  });

  it('imports back to the same fact: text, owner, category, metadata and time', () => {
    const plan = mem0MemoryPlan(mem0MemoryOf(fact), 'memory 1');
    expect(plan.facts[0]).toMatchObject({
      agent: 'alice',
      save: {
        key: 'mem0:40',
        content: 'Is a vegetarian',
        category: 'preference',
        metadata: { source: 'onboarding', mem0_categories: ['food'] },
        validFrom: fact.createdAt,
      },
    });
  });
});
