import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { FactSchema } from '@engram/contracts';
import { mem0Categories, mem0MemoryOf } from './mem0-memory';

describe('facts as mem0 memories', () => {
  const fact = create(FactSchema, {
    id: '42',
    firstId: '40',
    agent: 'alice',
    content: 'Is a vegetarian',
    category: 'preference',
    metadata: { source: 'onboarding', mem0_categories: ['food'] },
    createdAt: timestampFromDate(new Date('2025-03-02T17:15:31Z')),
  });

  it('answers the memory under its first id, with owner, run, categories and metadata', () => {
    expect(mem0MemoryOf(fact, { runId: 'trip-planning' })).toEqual({
      id: '40',
      memory: 'Is a vegetarian',
      hash: 'ce6b1c84586772ab9995a9477032df99', // md5 of the text, as mem0 hashes it
      user_id: 'alice',
      agent_id: null,
      run_id: 'trip-planning',
      metadata: { source: 'onboarding' },
      categories: ['preference', 'food'],
      created_at: '2025-03-02T17:15:31.000Z',
      updated_at: '2025-03-02T17:15:31.000Z',
      expiration_date: null,
      immutable: false,
    });
  });

  it('echoes the owner as the request named it', () => {
    expect(mem0MemoryOf(fact, { agentId: 'concierge' })).toMatchObject({
      user_id: null,
      agent_id: 'concierge',
    });
    expect(mem0MemoryOf(fact, { userId: 'alice@example.com' })).toMatchObject({
      user_id: 'alice@example.com',
    });
  });

  it("leaves out the default category an import gave a memory none of whose categories was Engram's", () => {
    expect(mem0Categories({ category: 'general', metadata: { mem0_categories: ['pets'] } })).toEqual([
      'pets',
    ]);
    expect(mem0Categories({ category: 'general', metadata: undefined })).toEqual(['general']);
  });
});
