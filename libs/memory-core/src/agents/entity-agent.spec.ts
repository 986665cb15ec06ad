import { entityAgent } from './entity-agent';

describe('entityAgent', () => {
  it('keeps an id that is an agent name, and maps any other onto one, always the same', () => {
    expect(entityAgent('alice')).toBe('alice');
    expect(entityAgent('3f1c-uuid_like')).toBe('3f1c-uuid_like');
    const mail = entityAgent('alice@example.com');
    expect(mail).toMatch(/^alice_example_com-[0-9a-f]{8}$/);
    expect(entityAgent('alice@example.com')).toBe(mail);
    expect(entityAgent('alice#example.com')).not.toBe(mail);
    expect(entityAgent('x'.repeat(300))).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });
});
