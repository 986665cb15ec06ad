import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';
import { REPOSITORY_ROOT, serviceSources, type ServiceSource } from './service-sources';

/** SQL that changes data, and the store's helpers that write (a being, a tenant, the outbox). */
const WRITES = /\b(INSERT|UPDATE|DELETE|MERGE|TRUNCATE|UPSERT)\b|\bensure[A-Z]\w*\(|\block\w*\(|\boutbox\b/;

/** One constructor dependency of a handler: its parameter name and the class it is typed by. */
interface Dependency {
  readonly name: string;
  readonly type: string;
  /** Where the handler imports the type from, as written; null when it is not imported by name. */
  readonly from: string | null;
}

/** A class with @HandleRpc methods: its dependencies and the `this.<dependency>.<method>(` calls of its methods. */
interface RpcHandlerClass {
  readonly path: string;
  readonly name: string;
  readonly dependencies: readonly Dependency[];
  readonly calls: ReadonlyArray<{ readonly dependency: string; readonly method: string }>;
}

const hasHandleRpc = (member: ts.ClassElement) =>
  (ts.canHaveDecorators(member) ? (ts.getDecorators(member) ?? []) : []).some(
    (d) =>
      ts.isCallExpression(d.expression) &&
      ts.isIdentifier(d.expression.expression) &&
      d.expression.expression.text === 'HandleRpc',
  );

/** The classes of a service source that handle RPCs, read from its syntax tree. */
function handlerClasses({ path, text }: ServiceSource): RpcHandlerClass[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const imports = new Map<string, string>();
  for (const statement of file.statements)
    if (
      ts.isImportDeclaration(statement) &&
      ts.isStringLiteral(statement.moduleSpecifier) &&
      statement.importClause?.namedBindings &&
      ts.isNamedImports(statement.importClause.namedBindings)
    )
      for (const element of statement.importClause.namedBindings.elements)
        imports.set(element.name.text, statement.moduleSpecifier.text);

  const classes: RpcHandlerClass[] = [];
  for (const statement of file.statements) {
    if (!ts.isClassDeclaration(statement) || !statement.name || !statement.members.some(hasHandleRpc))
      continue;
    const constructor = statement.members.find(ts.isConstructorDeclaration);
    const dependencies = (constructor?.parameters ?? []).map((p) => {
      const type = p.type && ts.isTypeReferenceNode(p.type) ? p.type.typeName.getText(file) : '?';
      return { name: p.name.getText(file), type, from: imports.get(type) ?? null };
    });
    const calls: Array<{ dependency: string; method: string }> = [];
    const visit = (node: ts.Node): void => {
      // this.<dependency>.<method>(…)
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        ts.isPropertyAccessExpression(node.expression.expression) &&
        node.expression.expression.expression.kind === ts.SyntaxKind.ThisKeyword
      )
        calls.push({ dependency: node.expression.expression.name.text, method: node.expression.name.text });
      ts.forEachChild(node, visit);
    };
    for (const member of statement.members) if (hasHandleRpc(member)) visit(member);
    classes.push({ path, name: statement.name.text, dependencies, calls });
  }
  return classes;
}

/**
 * What `method` of class `className` in `path` runs, as far as the file shows: its text, the text
 * of every method of the class it calls through `this.`, and the module constants (SQL kept beside
 * the class) those name. Null when the file has no such method.
 */
function methodText(path: string, className: string, method: string): string | null {
  const text = readFileSync(resolve(REPOSITORY_ROOT, path), 'utf8');
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const cls = file.statements.find(
    (s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === className,
  );
  const members: readonly ts.ClassElement[] = cls?.members ?? [];
  const methods = new Map(
    members.filter(ts.isMethodDeclaration).map((m) => [m.name.getText(file), m.getText(file)]),
  );
  if (!methods.has(method)) return null;
  const ran: string[] = [];
  const seen = new Set<string>();
  const pending = [method];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (seen.has(next) || !methods.has(next)) continue;
    seen.add(next);
    ran.push(methods.get(next)!);
    for (const call of methods.get(next)!.matchAll(/this\.(\w+)\(/g)) pending.push(call[1]!);
  }
  const constants = file.statements
    .filter(ts.isVariableStatement)
    .flatMap((s) =>
      s.declarationList.declarations.map((d) => [d.name.getText(file), s.getText(file)] as const),
    );
  for (const [name, declaration] of constants)
    if (ran.some((t) => new RegExp(`\\b${name}\\b`).test(t))) ran.push(declaration);
  return ran.join('\n');
}

/** The repository file a handler imports a dependency from (relative imports only). */
const repositoryPath = (handler: string, from: string) =>
  relative(REPOSITORY_ROOT, resolve(REPOSITORY_ROOT, dirname(handler), `${from}.ts`));

/**
 * CONTRIBUTING.md "Anatomy of a service": a handler only translates. It calls use cases, which own
 * the transaction and every write; or, the read-only shortcut, a repository's method that only
 * reads, for a plain read. Anything else a handler needs (a write, an event, another service, a
 * model, settings) is a use case's.
 */
describe('RPC handlers call use cases, or a repository for a plain read', () => {
  const handlers = serviceSources().flatMap(handlerClasses);

  it('finds the handlers', () => {
    expect(handlers.length).toBeGreaterThan(10);
  });

  it.each(handlers.map((h) => [`${h.path} ${h.name}`, h] as const))(
    '%s depends on use cases and repositories only',
    (_, handler) => {
      const others = handler.dependencies.filter(
        (d) =>
          !(d.type.endsWith('UseCase') && d.from?.endsWith('.use-case')) &&
          !(d.type.endsWith('Repository') && d.from?.endsWith('.repository')),
      );
      expect(others.map((d) => `${d.name}: ${d.type}`)).toEqual([]);
    },
  );

  it.each(handlers.map((h) => [`${h.path} ${h.name}`, h] as const))(
    '%s calls only reads of its repositories',
    (_, handler) => {
      const repositories = handler.dependencies.filter((d) => d.from?.endsWith('.repository'));
      const writes: string[] = [];
      for (const call of handler.calls) {
        const repository = repositories.find((r) => r.name === call.dependency);
        if (!repository) continue;
        const path = repositoryPath(handler.path, repository.from!);
        const text = methodText(path, repository.type, call.method);
        if (text === null || WRITES.test(text)) writes.push(`${repository.type}.${call.method}`);
      }
      expect(writes).toEqual([]);
    },
  );
});
