import ts from 'typescript';
import { sourcesUnder } from './service-sources';
import { RPC_VERBS } from './verbs';

/**
 * A use case is `<Verb><Noun>UseCase`, entered through its verb (CONTRIBUTING.md, "Anatomy of a
 * service"): `SaveFactUseCase.save`, `ExpandMemoryUseCase.expand`, `ListAgentsUseCase.list`. The
 * verbs are listed here, those of the RPC grammar (rpc-grammar.spec.ts) and then the workers'; a
 * new one goes into the list, so the choice is made once.
 */
const VERBS: readonly string[] = [
  ...RPC_VERBS,
  // The workers' (consumers and schedules).
  'compact',
  'describe',
  'extract',
  'grow',
  'ingest',
  'record',
];

interface UseCaseClass {
  readonly path: string;
  readonly name: string;
  /** Its public instance methods. */
  readonly methods: readonly string[];
}

const isHidden = (member: ts.ClassElement) =>
  ts
    .getModifiers(member as ts.HasModifiers)
    ?.some((m) =>
      [ts.SyntaxKind.PrivateKeyword, ts.SyntaxKind.ProtectedKeyword, ts.SyntaxKind.StaticKeyword].includes(
        m.kind,
      ),
    ) ?? false;

/** Every class a `*.use-case.ts` file declares, at any depth. */
function useCaseClasses(): UseCaseClass[] {
  return sourcesUnder('libs', 'services', 'tools')
    .filter((source) => source.path.endsWith('.use-case.ts'))
    .flatMap(({ path, text }) => {
      const classes: UseCaseClass[] = [];
      const visit = (node: ts.Node): void => {
        if (ts.isClassDeclaration(node) || ts.isClassExpression(node))
          classes.push({
            path,
            name: node.name?.text ?? '(anonymous)',
            methods: node.members
              .filter(ts.isMethodDeclaration)
              .filter((m) => ts.isIdentifier(m.name) && !isHidden(m))
              .map((m) => (m.name as ts.Identifier).text),
          });
        ts.forEachChild(node, visit);
      };
      visit(ts.createSourceFile(path, text, ts.ScriptTarget.Latest));
      return classes;
    });
}

/** What breaks the rule in a use case (none: it holds). */
function namingViolations({ name, methods }: UseCaseClass): string[] {
  const verb = /^[A-Z][a-z]*/.exec(name)?.[0].toLowerCase() ?? '';
  const problems: string[] = [];
  if (!/^[A-Z]\w*UseCase$/.test(name)) problems.push('does not end with UseCase');
  if (!VERBS.includes(verb)) problems.push(`does not start with a verb of the list ("${verb}")`);
  else if (!methods.includes(verb))
    problems.push(`has no public method ${verb} (it has ${methods.join(', ')})`);
  return problems;
}

describe('use case names', () => {
  const useCases = useCaseClasses();

  it('finds the use cases', () => {
    expect(useCases.length).toBeGreaterThan(20);
  });

  it.each(useCases.map((u) => [`${u.name} (${u.path})`, u] as const))(
    '%s is <Verb><Noun>UseCase with a public method <verb>',
    (_, useCase) => {
      expect(namingViolations(useCase)).toEqual([]);
    },
  );

  it('catches a use case entered through execute, or named without a verb', () => {
    expect(namingViolations({ path: '', name: 'SaveFactUseCase', methods: ['execute'] })).toEqual([
      'has no public method save (it has execute)',
    ]);
    expect(namingViolations({ path: '', name: 'SummaryTreeUseCase', methods: ['tree'] })).toEqual([
      'does not start with a verb of the list ("summary")',
    ]);
    expect(namingViolations({ path: '', name: 'ListAgents', methods: ['list'] })).toEqual([
      'does not end with UseCase',
    ]);
  });
});
