import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM with a key that lives outside the database (ENGRAM_SECRET_KEY):
 * stored as iv (12) ‖ tag (16) ‖ ciphertext, authenticated, so a tampered or
 * misplaced row fails to open rather than yielding garbage.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the secret key must be 32 bytes');
  }

  seal(plaintext: string, context: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  /** `context` binds the secret to its row (tenant and name): it must be the one it was sealed with. */
  open(sealed: Buffer, context: string): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, 12));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(sealed.subarray(12, 28));
    return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
  }
}
