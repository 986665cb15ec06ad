/**
 * What "open" and "in force" mean (docs/GLOSSARY.md), once: as SQL over a `facts` row and as a
 * test of a fact already read. libs/store re-exports them as the store's fact rules; they live
 * here, in a pure lib, so that libs/search (pure too) builds its statements on the same text.
 *
 * A fact is open until superseded or forgotten (its validity closed: valid_to set), and in force
 * while open and not expired. Expired and closed facts stay stored; they are only not served.
 */

/** A fact's validity as the rules read it. */
export interface FactValidity {
  readonly validFrom?: Date;
  readonly validTo: Date | null;
  readonly expiresAt: Date | null;
}

/** A fact (table alias `alias`) is open: neither superseded nor forgotten. The partial indexes' predicate, word for word. */
export function factOpen(alias: string): string {
  return `${alias}.valid_to IS NULL`;
}

/** A fact (table alias `alias`) is closed: superseded or forgotten. */
export function factClosed(alias: string): string {
  return `${alias}.valid_to IS NOT NULL`;
}

/**
 * A fact (table alias `alias`) in force: open, and not expired at the SQL time `at` (now()
 * unless given: what a writer compares a fact stated earlier with).
 */
export function factInForce(alias: string, at = 'now()'): string {
  return `${factOpen(alias)} AND (${alias}.expires_at IS NULL OR ${alias}.expires_at > ${at})`;
}

/**
 * A fact (table alias `alias`) in force as of the SQL time `at`: held by then, and neither closed
 * nor expired by then. A fact superseded or forgotten since is in force as it was.
 */
export function factInForceAsOf(alias: string, at: string): string {
  return `${alias}.valid_from <= ${at} AND (${alias}.valid_to IS NULL OR ${alias}.valid_to > ${at}) AND (${alias}.expires_at IS NULL OR ${alias}.expires_at > ${at})`;
}

/** factOpen of a fact already read. */
export function isFactOpen(fact: Pick<FactValidity, 'validTo'>): boolean {
  return fact.validTo === null;
}

/** factInForce of a fact already read: open, and not expired at `at`. */
export function isFactInForce(fact: FactValidity, at: Date): boolean {
  return isFactOpen(fact) && (fact.expiresAt === null || fact.expiresAt.getTime() > at.getTime());
}
