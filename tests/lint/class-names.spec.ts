import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '../..');
const SOURCE_ROOTS = ['libs', 'services', 'tools', 'tests'];
const NOT_SOURCES = new Set(['dist', 'node_modules']);

/** Every TypeScript source under `dir` (declarations, build output and installed packages left out). */
function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return NOT_SOURCES.has(entry.name) ? [] : sourcesUnder(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The names of the classes a source declares, at any depth (class expressions without a name have none). */
function classNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const names: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isClassDeclaration(node) || ts.isClassExpression(node)) && node.name) names.push(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** A name says which class it is: Nest resolves providers by class, logs and spans name them, and a reader greps for them. */
describe('class names', () => {
  it('no two classes in libs, services, tools or tests share a name', () => {
    const files = new Map<string, string[]>();
    for (const file of SOURCE_ROOTS.flatMap((root) => sourcesUnder(join(ROOT, root)))) {
      for (const name of classNames(file))
        files.set(name, [...(files.get(name) ?? []), relative(ROOT, file)]);
    }
    const shared = [...files]
      .filter(([, where]) => where.length > 1)
      .map(([name, where]) => `${name}: ${where.join(', ')}`);
    expect(files.size).toBeGreaterThan(50);
    expect(shared).toEqual([]);
  });
});
