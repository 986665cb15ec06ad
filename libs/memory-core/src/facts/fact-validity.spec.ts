import {
  factClosed,
  factInForce,
  factInForceAsOf,
  factOpen,
  isFactInForce,
  isFactOpen,
} from './fact-validity';

const now = new Date('2026-03-01T12:00:00Z');
const earlier = new Date('2026-02-01T00:00:00Z');
const later = new Date('2026-04-01T00:00:00Z');

describe('fact rules in SQL', () => {
  it('says open as the partial indexes do (valid_to IS NULL), closed as its negation', () => {
    expect(factOpen('f')).toBe('f.valid_to IS NULL');
    expect(factClosed('f')).toBe('f.valid_to IS NOT NULL');
  });

  it('says in force as open and not expired, now unless another time is given', () => {
    expect(factInForce('f')).toBe('f.valid_to IS NULL AND (f.expires_at IS NULL OR f.expires_at > now())');
    expect(factInForce('x', '$4')).toBe('x.valid_to IS NULL AND (x.expires_at IS NULL OR x.expires_at > $4)');
  });

  it('says in force as of a moment as held by then and neither closed nor expired by then', () => {
    expect(factInForceAsOf('f', '$2')).toBe(
      'f.valid_from <= $2 AND (f.valid_to IS NULL OR f.valid_to > $2) AND (f.expires_at IS NULL OR f.expires_at > $2)',
    );
  });
});

describe('fact rules of a fact already read', () => {
  it('counts a fact open until its validity is closed', () => {
    expect(isFactOpen({ validTo: null })).toBe(true);
    expect(isFactOpen({ validTo: earlier })).toBe(false);
  });

  it('counts a fact in force while open and not expired', () => {
    expect(isFactInForce({ validTo: null, expiresAt: null }, now)).toBe(true);
    expect(isFactInForce({ validTo: null, expiresAt: later }, now)).toBe(true);
    expect(isFactInForce({ validTo: null, expiresAt: earlier }, now)).toBe(false);
    expect(isFactInForce({ validTo: null, expiresAt: now }, now)).toBe(false);
    expect(isFactInForce({ validTo: earlier, expiresAt: null }, now)).toBe(false);
  });
});
