import { isLayerName, type LayerName } from './layers';

/**
 * A layer's share of the prompt: a fraction of the ceiling when ≤ 1, else a number of
 * tokens. Identity has none: it is required whole.
 */
export type LayerShares = Readonly<Record<Exclude<LayerName, 'identity'>, number>>;

export const DEFAULT_LAYER_SHARES: LayerShares = {
  persona: 0.15,
  workspace: 0.2,
  tools: 0.03,
  sticky_facts: 0.08,
  memory: 4000,
  skills: 0.08,
  scenes: 0.05,
  compaction: 0.1,
  snapshot: 0.08,
  recent: 0.25,
};

export class LayerSharesError extends Error {
  override readonly name = 'LayerSharesError';
}

/** Parses `memory=6000,workspace=0.25` over the defaults; an unknown layer or a bad number is an error. */
export function parseLayerShares(spec: string, base: LayerShares = DEFAULT_LAYER_SHARES): LayerShares {
  const shares: Record<string, number> = { ...base };
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, raw] = part.split('=').map((s) => s.trim());
    if (!name || raw === undefined || !isLayerName(name) || name === 'identity') {
      throw new LayerSharesError(
        `"${part}": expected <layer>=<share> with a layer among ${Object.keys(base).join(', ')}`,
      );
    }
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0 || (value > 1 && !Number.isInteger(value))) {
      throw new LayerSharesError(
        `"${part}": a share is a fraction of the budget (0–1) or a whole number of tokens`,
      );
    }
    shares[name] = value;
  }
  return shares as LayerShares;
}

/** The tokens a share stands for under a ceiling. */
export function shareTokens(share: number, ceiling: number): number {
  return share <= 1 ? Math.floor(share * ceiling) : Math.min(share, ceiling);
}
