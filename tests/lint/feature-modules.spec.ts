import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { REPOSITORY_ROOT } from './service-sources';

/** Services made of one Nest module per feature folder: `src/<folder>/<folder>.module.ts`. */
const FEATURE_MODULE_SERVICES = ['retrieval'];

const HANDLER_FILE = /\.(handler|consumer)\.ts$/;

const parse = (path: string) =>
  ts.createSourceFile(path, readFileSync(join(REPOSITORY_ROOT, path), 'utf8'), ts.ScriptTarget.Latest);

const decoratorNames = (node: ts.Node): string[] =>
  (ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : []).flatMap((d) => {
    const call = d.expression;
    if (ts.isCallExpression(call) && ts.isIdentifier(call.expression)) return [call.expression.text];
    return ts.isIdentifier(call) ? [call.text] : [];
  });

/** The exported classes of a source that carry `decorator` (`Controller`, `Module`). */
function exportedClasses(source: ts.SourceFile, decorator: string): string[] {
  return source.statements.flatMap((node) =>
    ts.isClassDeclaration(node) &&
    node.name &&
    node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) &&
    decoratorNames(node).includes(decorator)
      ? [node.name.text]
      : [],
  );
}

/** The names listed in every `<property>: [...]` of a source (`@Module({ controllers })` or a DynamicModule's). */
function listed(source: ts.SourceFile, property: 'controllers' | 'imports'): string[] {
  const names: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isPropertyAssignment(node) &&
      ts.isIdentifier(node.name) &&
      node.name.text === property &&
      ts.isArrayLiteralExpression(node.initializer)
    ) {
      for (const element of node.initializer.elements) if (ts.isIdentifier(element)) names.push(element.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** Every .ts file (not a spec) under `dir`, relative to the repository's root. */
function sourcesUnder(dir: string): string[] {
  return readdirSync(join(REPOSITORY_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith('.ts') && !/\.(int-|e2e-)?spec\.ts$/.test(entry.name) ? [path] : [];
  });
}

/**
 * A handler or consumer the JetStream server does not find neither answers nor consumes: each is
 * a controller of the module of its own feature folder (and of no other), and the service's
 * module imports every feature module.
 */
describe.each(FEATURE_MODULE_SERVICES)('services/%s feature modules', (service) => {
  const src = join('services', service, 'src');
  const sources = sourcesUnder(src);
  const folderOf = (path: string) => relative(src, path).split(sep)[0]!;
  const moduleOf = (folder: string) => join(src, folder, `${folder}.module.ts`);
  const handlers = sources.filter((path) => HANDLER_FILE.test(path));
  const modules = sources.filter((path) => path.endsWith('.module.ts'));

  it('has handlers and consumers, each in a feature folder', () => {
    expect(handlers.length).toBeGreaterThan(0);
    expect(handlers.filter((path) => !relative(src, path).includes(sep))).toEqual([]);
  });

  it.each(handlers)('%s is a controller of its folder’s module, and of no other', (path) => {
    const classes = exportedClasses(parse(path), 'Controller');
    expect(classes.length).toBeGreaterThan(0);
    const home = moduleOf(folderOf(path));
    expect({ path, moduleExists: existsSync(join(REPOSITORY_ROOT, home)) }).toEqual({
      path,
      moduleExists: true,
    });
    const registeredIn = (name: string) =>
      modules.filter((module) => listed(parse(module), 'controllers').includes(name));
    expect(classes.map((name) => ({ name, registeredIn: registeredIn(name) }))).toEqual(
      classes.map((name) => ({ name, registeredIn: [home] })),
    );
  });

  it(`${service}.module.ts imports every feature module`, () => {
    const features = modules
      .filter((path) => path === moduleOf(folderOf(path)))
      .flatMap((path) => exportedClasses(parse(path), 'Module'));
    expect(features.length).toBeGreaterThan(0);
    const imported = listed(parse(join(src, `${service}.module.ts`)), 'imports');
    expect(features.filter((name) => !imported.includes(name))).toEqual([]);
  });
});
