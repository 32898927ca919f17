import ts from 'typescript';

const fileName = '/virtual/checked.ts';

const compilerOptions: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ES2022,
  lib: ['lib.es2022.d.ts'],
  types: [],
};

/**
 * Type-checks one in-memory module under `strict` against the standard library only, so a test sees
 * exactly what a user pasting generated code into a fresh project would. Returns the diagnostics as
 * text with their line, empty when the source compiles.
 */
export function typeScriptDiagnostics(source: string): string[] {
  const host = ts.createCompilerHost(compilerOptions);
  const readLibrary = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.getSourceFile = (name, languageVersion, ...rest) =>
    name === fileName ? ts.createSourceFile(name, source, languageVersion, true) : readLibrary(name, languageVersion, ...rest);
  host.fileExists = (name) => name === fileName || fileExists(name);
  const program = ts.createProgram([fileName], compilerOptions, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (!diagnostic.file || diagnostic.start === undefined) return text;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `line ${line + 1}: ${text}`;
  });
}
