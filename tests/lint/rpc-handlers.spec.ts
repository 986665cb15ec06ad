import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { Rpcs } from '@engram/contracts';
import { REPOSITORY_ROOT, serviceSources, type ServiceSource } from './service-sources';

interface RpcHandler {
  /** The key of Rpcs it names (`expand` for `@HandleRpc(Rpcs.expand)`); null when it names its RPC otherwise. */
  readonly rpc: string | null;
  readonly path: string;
}

/** The source's @HandleRpc decorators, read from its syntax tree (a commented-out one is not a handler). */
function rpcHandlers({ path, text }: ServiceSource): RpcHandler[] {
  const handlers: RpcHandler[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isDecorator(node) &&
      ts.isCallExpression(node.expression) &&
      ts.isIdentifier(node.expression.expression) &&
      node.expression.expression.text === 'HandleRpc'
    ) {
      const [spec] = node.expression.arguments;
      const named =
        spec &&
        ts.isPropertyAccessExpression(spec) &&
        ts.isIdentifier(spec.expression) &&
        spec.expression.text === 'Rpcs';
      handlers.push({ rpc: named ? spec.name.text : null, path });
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(path, text, ts.ScriptTarget.Latest));
  return handlers;
}

/** The subject as a word of the text: `mem.rpc.browse`, `mem.rpc.browse.{tenant}` or `.acme`, not `mem.rpc.browser`. */
const mentioning = (subject: string) => new RegExp(`${subject.replace(/\./g, '\\.')}(?![\\w-])`);

/**
 * No RPC is listed that nothing serves or that the RPC reference (docs/reference/rpcs.md, the
 * table README links) does not name: a client can call every one it reads about.
 */
describe('RPC handlers', () => {
  const handlers = serviceSources().flatMap(rpcHandlers);
  const reference = readFileSync(resolve(REPOSITORY_ROOT, 'docs/reference/rpcs.md'), 'utf8');

  it.each(Object.entries(Rpcs))('%s has exactly one @HandleRpc, in its owner service', (rpc, spec) => {
    expect({ rpc, handledIn: handlers.filter((h) => h.rpc === rpc).map((h) => h.path) }).toEqual({
      rpc,
      handledIn: [expect.stringMatching(`^services/${spec.owner}/src/`)],
    });
  });

  it('finds every handler: each @HandleRpc names its RPC as Rpcs.<key>', () => {
    expect(handlers.length).toBeGreaterThan(0);
    expect(handlers.filter((h) => h.rpc === null)).toEqual([]);
  });

  it.each(Object.values(Rpcs).map((spec) => spec.subject))('docs/reference/rpcs.md names %s', (subject) => {
    expect({ subject, inReference: mentioning(subject).test(reference) }).toEqual({
      subject,
      inReference: true,
    });
  });

  it.each(Object.values(Rpcs).flatMap((spec) => spec.aliases.map((alias) => [alias, spec.subject])))(
    'docs/reference/rpcs.md names the former subject %s beside %s',
    (alias, subject) => {
      const line = reference.split('\n').find((l) => mentioning(alias).test(l)) ?? '';
      expect({ alias, namesItsSuccessor: mentioning(subject).test(line) }).toEqual({
        alias,
        namesItsSuccessor: true,
      });
    },
  );
});
