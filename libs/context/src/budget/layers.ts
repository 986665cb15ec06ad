/** The layers a prompt is built from, in the order their blocks appear. */
export const LAYERS = [
  'identity',
  'persona',
  'workspace',
  'tools',
  'sticky_facts',
  'memory',
  'skills',
  'scenes',
  'compaction',
  'snapshot',
  'recent',
] as const;

export type LayerName = (typeof LAYERS)[number];

/** Layers whose blocks do not depend on the conversation: the prefix a runtime can cache. */
export const STABLE_PREFIX_LAYERS: readonly LayerName[] = ['identity', 'persona', 'workspace', 'tools'];

/**
 * Who gets the budget first. Identity is required whole; each other layer takes up to
 * its share of what is left, in this order; then whatever is still left extends the
 * recent conversation with older messages.
 */
export const FILL_ORDER: readonly LayerName[] = [
  'identity',
  'persona',
  'sticky_facts',
  'tools',
  'workspace',
  'skills',
  'compaction',
  'recent',
  'memory',
  'snapshot',
  'scenes',
];

export function isLayerName(value: string): value is LayerName {
  return (LAYERS as readonly string[]).includes(value);
}
