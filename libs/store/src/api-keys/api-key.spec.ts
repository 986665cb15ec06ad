import { apiKeyHash, looksLikeApiKey, newApiKey } from './api-key';

describe('newApiKey', () => {
  it('makes a prefixed key of 256 random bits, with an id and a display prefix', () => {
    const made = newApiKey();
    expect(made.key).toMatch(/^egm_[A-Za-z0-9_-]{43}$/);
    expect(made.id).toMatch(/^key_[A-Za-z0-9_-]{12}$/);
    expect(made.key.startsWith(made.prefix)).toBe(true);
    expect(made.prefix).toHaveLength(12);
    expect(looksLikeApiKey(made.key)).toBe(true);
  });

  it('never makes the same key twice and stores only its hash', () => {
    const [a, b] = [newApiKey(), newApiKey()];
    expect(a.key).not.toBe(b.key);
    expect(a.id).not.toBe(b.id);
    expect(a.sha256.equals(apiKeyHash(a.key))).toBe(true);
    expect(a.sha256.toString('hex')).not.toContain(a.key);
  });
});

describe('looksLikeApiKey', () => {
  it('refuses what is not an Engram key', () => {
    expect(looksLikeApiKey('')).toBe(false);
    expect(looksLikeApiKey('sk-abc')).toBe(false);
    expect(looksLikeApiKey(`egm_${'a'.repeat(42)}`)).toBe(false);
    expect(looksLikeApiKey(`egm_${'a'.repeat(42)}!`)).toBe(false);
  });
});
