import { classifyMemoryTag, expiryOf, isExpired } from './fact-kinds';

describe('fact lifetimes', () => {
  const statedAt = new Date('2026-02-22T10:00:00Z');

  it('never expires a sticky fact', () => {
    expect(expiryOf('sticky', statedAt)).toBeNull();
    expect(isExpired(null, new Date('2100-01-01'))).toBe(false);
  });

  it('serves a user preference for 90 days and project context or learned patterns for 30', () => {
    expect(expiryOf('user_preference', statedAt)?.toISOString()).toBe('2026-05-23T10:00:00.000Z');
    expect(expiryOf('project_context', statedAt)?.toISOString()).toBe('2026-03-24T10:00:00.000Z');
    expect(expiryOf('learned_pattern', statedAt)?.toISOString()).toBe('2026-03-24T10:00:00.000Z');
  });

  it('counts a fact as expired from its expiry instant on', () => {
    const expiry = expiryOf('project_context', statedAt)!;
    expect(isExpired(expiry, new Date(expiry.getTime() - 1))).toBe(false);
    expect(isExpired(expiry, expiry)).toBe(true);
  });
});

describe('classifyMemoryTag', () => {
  it('maps lifetime types to a lifetime and a category', () => {
    expect(classifyMemoryTag('sticky')).toEqual({ category: 'fact', lifetime: 'sticky' });
    expect(classifyMemoryTag('user_preference')).toEqual({
      category: 'preference',
      lifetime: 'user_preference',
    });
    expect(classifyMemoryTag('PROJECT_CONTEXT')).toEqual({ category: 'fact', lifetime: 'project_context' });
    expect(classifyMemoryTag('learned_pattern')).toEqual({
      category: 'general',
      lifetime: 'learned_pattern',
    });
  });

  it('accepts category names and keeps unknown types as expiring general notes', () => {
    expect(classifyMemoryTag('correction')).toEqual({ category: 'correction', lifetime: 'sticky' });
    expect(classifyMemoryTag('task')).toEqual({ category: 'task', lifetime: 'project_context' });
    expect(classifyMemoryTag('whatever')).toEqual({ category: 'general', lifetime: 'project_context' });
  });
});
