import { ConfigError } from '@engram/config';
import { DEFAULT_LAYER_SHARES } from '@engram/context';
import { loadContextBuilderConfig } from './context-builder.config';

const base = { NATS_URL: 'nats://127.0.0.1:4222', DATABASE_URL: 'postgres://localhost/engram' };

describe('context-builder config', () => {
  it('applies layer shares over the built-in ones', () => {
    const config = loadContextBuilderConfig({ ...base, CONTEXT_LAYER_SHARES: 'memory=6000,recent=0.4' });
    expect(config.layerShares).toEqual({ ...DEFAULT_LAYER_SHARES, memory: 6000, recent: 0.4 });
    expect(loadContextBuilderConfig(base).layerShares).toEqual(DEFAULT_LAYER_SHARES);
  });

  it('refuses to start on a share it cannot read, naming the variable', () => {
    expect(() => loadContextBuilderConfig({ ...base, CONTEXT_LAYER_SHARES: 'memroy=10' })).toThrow(
      ConfigError,
    );
    expect(() => loadContextBuilderConfig({ ...base, CONTEXT_LAYER_SHARES: 'memroy=10' })).toThrow(
      /CONTEXT_LAYER_SHARES: "memroy=10"/,
    );
  });
});
