import ts from 'typescript';
import { sourcesUnder } from './service-sources';

/**
 * A logger is named by the class that holds it, `new Logger(ClassName.name)` (CONTRIBUTING.md,
 * "Anatomy of a service"), so a log line's context is a name to grep for. A class with one instance
 * per RPC or consumer follows its name with what the instance serves:
 * `new Logger(`${RpcEndpoint.name} ${spec.subject}`)`.
 */
const isNameOf = (node: ts.Node, className: string) =>
  ts.isPropertyAccessExpression(node) &&
  ts.isIdentifier(node.expression) &&
  node.expression.text === className &&
  node.name.text === 'name';

/** Whether a logger's name follows the rule in the class named `className` (undefined: in no class). */
function followsRule(argument: ts.Expression | undefined, className: string | undefined): boolean {
  if (!argument || !className) return false;
  if (isNameOf(argument, className)) return true;
  return (
    ts.isTemplateExpression(argument) &&
    argument.head.text === '' &&
    isNameOf(argument.templateSpans[0]!.expression, className) &&
    argument.templateSpans[0]!.literal.text.startsWith(' ')
  );
}

interface LoggerCall {
  /** `path:line`. */
  readonly where: string;
  readonly argument: ts.Expression | undefined;
  readonly className: string | undefined;
  readonly text: string;
}

/** Every `new Logger(…)` of the sources, with the class around it. */
function loggerCalls(): LoggerCall[] {
  return sourcesUnder('libs', 'services', 'tools').flatMap(({ path, text }) => {
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const calls: LoggerCall[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'Logger') {
        let around: ts.Node | undefined = node.parent;
        while (around && !ts.isClassDeclaration(around) && !ts.isClassExpression(around))
          around = around.parent;
        calls.push({
          where: `${path}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`,
          argument: node.arguments?.[0],
          className: around && (around as ts.ClassLikeDeclaration).name?.text,
          text: node.getText(source),
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return calls;
  });
}

describe('logger names', () => {
  const calls = loggerCalls();

  it('finds the loggers', () => {
    expect(calls.length).toBeGreaterThan(10);
  });

  it('names every logger by the class that holds it', () => {
    const wrong = calls
      .filter((c) => !followsRule(c.argument, c.className))
      .map((c) => `${c.where}: ${c.text} in ${c.className ?? 'no class'}`);
    expect(wrong).toEqual([]);
  });

  it('catches a string, another class, a prefix of its own and a logger outside a class', () => {
    const expression = (code: string) =>
      (
        ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest, true)
          .statements[0] as ts.ExpressionStatement
      ).expression;
    expect(followsRule(expression('OutboxRelay.name'), 'OutboxRelay')).toBe(true);
    expect(followsRule(expression('`${RpcEndpoint.name} ${spec.subject}`'), 'RpcEndpoint')).toBe(true);
    expect(followsRule(expression("'OutboxRelay'"), 'OutboxRelay')).toBe(false);
    expect(followsRule(expression('NatsClient.name'), 'OutboxRelay')).toBe(false);
    expect(followsRule(expression('`Rpc ${spec.subject}`'), 'RpcEndpoint')).toBe(false);
    expect(followsRule(expression('`${RpcEndpoint.name}-${spec.subject}`'), 'RpcEndpoint')).toBe(false);
    expect(followsRule(expression('ProblemFilter.name'), undefined)).toBe(false);
  });
});
