import { ConfigError, loadConfig } from './load-config';

describe('loadConfig', () => {
  it('applies defaults for unset and empty variables', () => {
    const config = loadConfig(['NATS_URL', 'DATABASE_POOL_SIZE', 'LOG_LEVEL'], { DATABASE_POOL_SIZE: '' });
    expect(config).toEqual({ NATS_URL: 'nats://127.0.0.1:4222', DATABASE_POOL_SIZE: 10, LOG_LEVEL: 'info' });
  });

  it('coerces numbers and booleans from strings', () => {
    expect(
      loadConfig(['DATABASE_POOL_SIZE', 'EMBEDDING_DIMENSIONS'], {
        DATABASE_POOL_SIZE: '25',
        EMBEDDING_DIMENSIONS: '1536',
      }),
    ).toEqual({
      DATABASE_POOL_SIZE: 25,
      EMBEDDING_DIMENSIONS: 1536,
    });
  });

  it('names every invalid variable with its value and what is wrong', () => {
    let error: unknown;
    try {
      loadConfig(['NATS_URL', 'DATABASE_POOL_SIZE', 'LOG_LEVEL'], {
        NATS_URL: 'http://localhost:4222',
        DATABASE_POOL_SIZE: 'lots',
        LOG_LEVEL: 'info',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^NATS_URL="http:\/\/localhost:4222": must be a nats/);
    expect(problems[1]).toMatch(/^DATABASE_POOL_SIZE="lots":/);
  });

  it('reads MODEL_WINDOWS as windows by model name or prefix, and names a part it cannot read', () => {
    expect(loadConfig(['MODEL_WINDOWS'], {})).toEqual({ MODEL_WINDOWS: {} });
    expect(loadConfig(['MODEL_WINDOWS'], { MODEL_WINDOWS: ' ollama/=32768, my-finetune = 65536 ' })).toEqual({
      MODEL_WINDOWS: { 'ollama/': 32_768, 'my-finetune': 65_536 },
    });
    expect(() => loadConfig(['MODEL_WINDOWS'], { MODEL_WINDOWS: 'gpt-4.1=lots' })).toThrow(
      /MODEL_WINDOWS="gpt-4.1=lots": "gpt-4.1=lots": expected <model or prefix>=<window in tokens/,
    );
  });

  it('rejects an embedding width pgvector cannot index', () => {
    expect(() => loadConfig(['EMBEDDING_DIMENSIONS'], { EMBEDDING_DIMENSIONS: '4001' })).toThrow(ConfigError);
  });
});
