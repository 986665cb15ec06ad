import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, and the sealed bytes do not contain the secret', () => {
    const sealed = box.seal('sk-live-123456', 'acme/model:qwen');
    expect(sealed.includes(Buffer.from('sk-live-123456'))).toBe(false);
    expect(box.open(sealed, 'acme/model:qwen')).toBe('sk-live-123456');
  });

  it('refuses a secret moved to another tenant or model, or tampered with', () => {
    const sealed = box.seal('sk-live-123456', 'acme/model:qwen');
    expect(() => box.open(sealed, 'globex/model:qwen')).toThrow();
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1]! ^= 1;
    expect(() => box.open(tampered, 'acme/model:qwen')).toThrow();
  });

  it('refuses another key', () => {
    expect(() => new SecretBox(randomBytes(32)).open(box.seal('x', 'c'), 'c')).toThrow();
  });
});
