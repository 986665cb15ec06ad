import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Rpcs, type RpcSpec } from '@engram/contracts';
import { REPOSITORY_ROOT } from './service-sources';
import { RPC_VERBS } from './verbs';

/**
 * The RPC grammar (CONTRIBUTING.md, "Name an RPC"): `<area>.rpc.<resource>….<verb>`, lower-case
 * words only. A resource is a collection, named in the plural, or a thing there is one of in its
 * scope, in the singular; a new word goes in one of these lists, so the choice is made once.
 */
const COLLECTIONS = [
  'agents',
  'clusters',
  'compactions',
  'conversations',
  'deadletters',
  'facts',
  'keys',
  'models',
  'nodes',
  'notes',
  'preferences',
  'relationships',
  'rules',
  'scenes',
  'skills',
  'summaries',
];
const SINGLETONS = [
  'being',
  'context',
  'history',
  'journal',
  'patrol',
  'settings',
  'soul',
  'state',
  'stats',
  'tenant',
  'workspace',
];
const VERBS: readonly string[] = RPC_VERBS;
const AREAS = ['mem', 'gerty'];

/** What breaks the grammar in a subject (none: it holds). */
function grammarViolations(subject: string): string[] {
  const [area, rpc, ...path] = subject.split('.');
  const verb = path.pop() ?? '';
  const problems: string[] = [];
  if (!AREAS.includes(area!) || rpc !== 'rpc') problems.push(`not <${AREAS.join('|')}>.rpc.…`);
  if (!VERBS.includes(verb)) problems.push(`"${verb}" is not a verb of the grammar`);
  for (const word of path)
    if (!COLLECTIONS.includes(word) && !SINGLETONS.includes(word))
      problems.push(`"${word}" is neither a collection nor a singleton of the grammar`);
  return problems;
}

/** Resources of two words, written as one in a subject and in camelCase in a key. */
const COMPOUNDS: Record<string, string> = { deadletters: 'deadLetters' };

/** An RPC's key in `Rpcs`: the camelCase of its subject after `mem.rpc.` (`gerty.rpc.` keeps `gerty`). */
function keyOf(subject: string): string {
  const words = subject
    .replace(/^mem\.rpc\./, '')
    .replace(/^gerty\.rpc\./, 'gerty.')
    .split('.')
    .map((w) => COMPOUNDS[w] ?? w);
  return words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
}

const ENTRIES = Object.entries<RpcSpec>(Rpcs);

describe('the RPC grammar', () => {
  it.each(ENTRIES.map(([key, spec]) => [spec.subject, key]))('%s follows it', (subject) => {
    expect({ subject, problems: grammarViolations(subject) }).toEqual({ subject, problems: [] });
  });

  it.each(ENTRIES.map(([key, spec]) => [key, spec.subject]))('Rpcs.%s is named after %s', (key, subject) => {
    expect(key).toBe(keyOf(subject));
  });

  it('finds the mistakes it is for', () => {
    expect(grammarViolations('mem.rpc.being.recall_memory')).toEqual([
      `"recall_memory" is not a verb of the grammar`,
    ]);
    expect(grammarViolations('mem.rpc.agent.put')).toEqual([
      `"agent" is neither a collection nor a singleton of the grammar`,
    ]);
    expect(grammarViolations('mem.rpc.stats')).toEqual([`"stats" is not a verb of the grammar`]);
  });

  it('keeps each former subject apart from every current one, and each answered by one RPC', () => {
    const current = new Set(ENTRIES.map(([, spec]) => spec.subject));
    const former = ENTRIES.flatMap(([, spec]) => spec.aliases);
    expect(former.filter((alias) => current.has(alias))).toEqual([]);
    expect(new Set(former).size).toBe(former.length);
  });

  it('is written down in CONTRIBUTING.md with every verb', () => {
    const contributing = readFileSync(resolve(REPOSITORY_ROOT, 'CONTRIBUTING.md'), 'utf8');
    const section = contributing.slice(contributing.indexOf('## Name an RPC'));
    expect(section.length).toBeLessThan(contributing.length);
    expect(VERBS.filter((verb) => !section.includes(`\`${verb}\``))).toEqual([]);
  });
});
