import { readersOf, renderConfigTable } from './config-table';
import { ServiceVariables } from './service-variables';
import { Variables, type VariableName } from './variables';

describe('the configuration table', () => {
  const names = Object.keys(Variables) as VariableName[];

  it('derives the services of the "Read by" column from each service\'s variables', () => {
    expect(readersOf('RPC_CONCURRENCY')).toBe('all services');
    expect(readersOf('NATS_USER')).toBe('all services, the CLI');
    expect(readersOf('OUTBOX_RELAY_INTERVAL_MS')).toBe('ingest, embedder, compactor, patrol, retrieval');
    expect(readersOf('GERTY_TIMEOUT_MS')).toBe('embedder, compactor, patrol');
    expect(readersOf('INGEST_MAX_CONTENT_CHARS')).toBe('api, ingest, engram import');
    expect(readersOf('EMBEDDING_DIMENSIONS')).toBe('embedder, patrol, retrieval, gerty, engram db migrate');
    expect(readersOf('ENGRAM_STACK_SERVICES')).toBe('npm start');
  });

  it('names a service only where its variables say so (alsoReadBy names none)', () => {
    const services = Object.keys(ServiceVariables);
    for (const name of names) {
      const words = (Variables[name] as { alsoReadBy?: string }).alsoReadBy?.split(/[^a-z-]+/) ?? [];
      expect({ name, services: words.filter((word) => services.includes(word)) }).toEqual({
        name,
        services: [],
      });
    }
  });

  it('has a reader for every variable', () => {
    for (const name of names) expect({ name, readers: readersOf(name) }).not.toEqual({ name, readers: '' });
  });

  it('has one row per variable, in their order', () => {
    const rows = renderConfigTable().split('\n').slice(2);
    expect(rows.map((row) => /^\| `([A-Z_]+)` \|/.exec(row)?.[1])).toEqual(names);
  });
});
