import { basename } from 'node:path';
import { Consumers } from '@engram/contracts';
import { serviceSources } from './service-sources';

const CONSUMER_DECORATOR = /@ConsumeEvent(?:s|Batches)\(\s*Consumers\.(\w+)\s*\)/g;

const camel = (durable: string) => durable.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
const pascal = (durable: string) => camel(durable).replace(/^\w/, (c) => c.toUpperCase());

/** One name per consumer, from the topology to the file to the class. */
describe('consumer names', () => {
  const sources = serviceSources();

  it.each(Object.entries(Consumers))('%s is keyed, filed and named after its durable', (key, spec) => {
    expect(key).toBe(camel(spec.durable));
    const files = sources.filter((s) => basename(s.path) === `${spec.durable}.consumer.ts`);
    expect(files.map((f) => f.path)).toEqual([expect.stringMatching(`^services/${spec.owner}/src/`)]);
    const [file] = files;
    expect(file!.text).toMatch(new RegExp(`export class ${pascal(spec.durable)}Consumer\\b`));
    expect([...file!.text.matchAll(CONSUMER_DECORATOR)].map((m) => m[1])).toEqual([key]);
  });

  it('has no consumer decorator outside the consumers’ own files', () => {
    const elsewhere = sources
      .filter((s) => s.text.match(CONSUMER_DECORATOR))
      .map((s) => s.path)
      .filter((path) => !Object.values(Consumers).some((c) => basename(path) === `${c.durable}.consumer.ts`));
    expect(elsewhere).toEqual([]);
  });
});
