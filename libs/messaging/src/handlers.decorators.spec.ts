import { resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(__dirname, '../../..');
const typeSpec = resolve(__dirname, 'handlers.decorators.type-spec.ts');

/** The type-spec's diagnostics under the repo's compiler options, the libs read from their sources. */
function diagnosticsOf(file: string): string[] {
  const config = ts.parseJsonConfigFileContent(
    {
      extends: './tsconfig.base.json',
      compilerOptions: {
        noEmit: true,
        composite: false,
        incremental: false,
        declaration: false,
        declarationMap: false,
        paths: { '@engram/*': ['./libs/*/src/index.ts'] },
      },
      files: [file],
    },
    ts.sys,
    root,
  );
  const program = ts.createProgram(config.fileNames, config.options);
  const source = program.getSourceFile(file)!;
  return [
    ...config.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getSyntacticDiagnostics(source),
    ...program.getSemanticDiagnostics(source),
  ].map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    return `${where ? `line ${where.line + 1}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('typed handlers', () => {
  it('compile only in the shape their RPC or consumer gives them (handlers.decorators.type-spec.ts)', () => {
    expect(diagnosticsOf(typeSpec)).toEqual([]);
  }, 120_000);
});
