/**
 * The store's fact rules: "open" and "in force" (docs/GLOSSARY.md) as the one SQL fragment every
 * query that means them uses, and as the same test of a fact already read. Defined in
 * libs/memory-core (pure) so that libs/search, which may not depend on the store, builds its
 * statements on the same text; services take them from here.
 */
export {
  factClosed,
  factInForce,
  factInForceAsOf,
  factOpen,
  isFactInForce,
  isFactOpen,
  type FactValidity,
} from '@engram/memory-core';
