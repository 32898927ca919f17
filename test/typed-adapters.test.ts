import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

/** The diagnostics of one file of the project, compiled with the project's own tsconfig. */
function projectDiagnostics(file: string, replace?: [string, string]): string[] {
  const configFile = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
  const host = ts.createCompilerHost(options);
  const target = path.join(root, file);
  if (replace) {
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (name, version, ...rest) =>
      path.resolve(name) === target ? ts.createSourceFile(name, ts.sys.readFile(target)!.replaceAll(replace[0], replace[1]), version, true) : read(name, version, ...rest);
  }
  const program = ts.createProgram([target], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file && path.resolve(diagnostic.file.fileName) === target)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('typed adapters', () => {
  it('refuses routes and tools whose parts do not make the operation input, and accepts those that do', () => {
    // Every @ts-expect-error in the file is used: each mismatch is an error, each match is not.
    expect(projectDiagnostics('test/types/adapters.ts')).toEqual([]);
  }, 60_000);

  it('reports the mismatches once the directives are gone', () => {
    const diagnostics = projectDiagnostics('test/types/adapters.ts', ['// @ts-expect-error', '// expected:']);
    expect(diagnostics.length).toBe(3);
  }, 60_000);
});
