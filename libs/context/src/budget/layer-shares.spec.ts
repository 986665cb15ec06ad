import { DEFAULT_LAYER_SHARES, LayerSharesError, parseLayerShares, shareTokens } from './layer-shares';

describe('layer shares', () => {
  it('overrides the defaults with fractions or token counts', () => {
    const shares = parseLayerShares(' memory=6000, workspace=0.25 ');
    expect(shares.memory).toBe(6000);
    expect(shares.workspace).toBe(0.25);
    expect(shares.tools).toBe(DEFAULT_LAYER_SHARES.tools);
    expect(parseLayerShares('')).toEqual(DEFAULT_LAYER_SHARES);
  });

  it('names what is wrong with a bad setting', () => {
    expect(() => parseLayerShares('memroy=10')).toThrow(LayerSharesError);
    expect(() => parseLayerShares('identity=0.1')).toThrow(/layer among/);
    expect(() => parseLayerShares('memory=lots')).toThrow(/fraction/);
    expect(() => parseLayerShares('memory=2.5')).toThrow(/whole number/);
  });

  it('turns a share into tokens under a ceiling', () => {
    expect(shareTokens(0.25, 6144)).toBe(1536);
    expect(shareTokens(4000, 96_000)).toBe(4000);
    expect(shareTokens(4000, 3000)).toBe(3000);
  });
});
