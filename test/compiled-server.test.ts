import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runProcess } from './support/process.ts';

// The checks of decisions/0039 on copies of the repository (built, unbuilt, dist/ alone). Apart from
// test/cli.test.ts, so the two longest files of the suite run side by side.
describe('the compiled server (docs/decisions/0039)', () => {
  /** Checkouts of their own, so the repository's dist/ (which the global setup keeps current) is not touched. */
  let trees: string;
  /** bin/, package.json and the sources (the server's and the panel's), as a clone before `npm install` has built anything. */
  let clone: string;
  /** bin/, package.json and dist/ alone: what runs when there is no TypeScript at all. */
  let compiledOnly: string;
  const folio = (tree: string, ...args: string[]) => runProcess(process.execPath, [path.join(tree, 'bin/folio.mjs'), ...args], { LOG_LEVEL: 'silent' }, { cwd: tree, timeoutMs: 60_000 });
  const fallback = (why: string) => `folio: dist/ ${why}, so this runs the TypeScript sources through tsx, seconds slower to start: run \`npm run build\` to start fast again.`;
  const link = (tree: string) => fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(tree, 'node_modules'));

  beforeAll(() => {
    trees = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-compiled-'));
    clone = path.join(trees, 'clone');
    for (const entry of ['bin', 'src', 'admin', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) fs.cpSync(path.join(repoRoot, entry), path.join(clone, entry), { recursive: true });
    link(clone);
  });
  afterAll(() => {
    if (trees) fs.rmSync(trees, { recursive: true, force: true });
  });

  it('before any build, still answers, from the sources, saying in one sentence what to run', async () => {
    const result = await folio(clone, '--version');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('0.1.0\n');
    expect(result.stderr.trim().split('\n')).toEqual([fallback('has not been built')]);
  });

  it('once built, answers from dist/ with nothing on stderr', { timeout: 120_000 }, async () => {
    const build = await runProcess(process.execPath, ['bin/build.mjs'], {}, { cwd: clone, timeoutMs: 110_000 });
    expect(build.code, build.stderr).toBe(0);
    expect(fs.existsSync(path.join(clone, 'dist/main.js'))).toBe(true);
    expect(fs.existsSync(path.join(clone, 'dist/admin/index.html'))).toBe(true);
    const [version, help] = await Promise.all([folio(clone, '--version'), folio(clone, '--help')]);
    expect(version).toMatchObject({ code: 0, stdout: '0.1.0\n', stderr: '' });
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^\s+serve\b/m);
  });

  it('puts beside the compiled modules every file the sources read beside theirs', () => {
    // `new URL('./x', import.meta.url)` and `import … from '../package.json'`: each must resolve from dist/ as from src/.
    const reads: string[] = [];
    for (const entry of fs.readdirSync(path.join(clone, 'src'), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const source = path.join(entry.parentPath, entry.name);
      const text = fs.readFileSync(source, 'utf8');
      const compiled = path.join(clone, 'dist', path.relative(path.join(clone, 'src'), source)).replace(/\.ts$/, '.js');
      for (const match of text.matchAll(/new URL\('(\.\.?\/[^']+)', import\.meta\.url\)|from '(\.\.?\/[^']+\.json)'/g)) {
        const relative = match[1] ?? match[2]!;
        reads.push(relative);
        expect(fs.existsSync(path.resolve(path.dirname(compiled), relative)), `${path.relative(clone, compiled)} reads ${relative}`).toBe(true);
      }
    }
    expect(reads).toEqual(expect.arrayContaining(['./pages/sign-in.js', '../content/value-types.ts', '../../package.json']));
  });

  it('runs from dist/ alone, with no TypeScript beside it, as a package installed from the registry', async () => {
    compiledOnly = path.join(trees, 'compiled-only');
    for (const entry of ['bin', 'dist', 'package.json']) fs.cpSync(path.join(clone, entry), path.join(compiledOnly, entry), { recursive: true, preserveTimestamps: true });
    link(compiledOnly);
    const help = await folio(compiledOnly, 'serve', '--help');
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('--port');
  });

  it('after a source changed since the build, still answers, naming the changed file and what to run', async () => {
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(clone, 'src/main.ts'), later, later);
    const result = await folio(clone, '--version');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('0.1.0\n');
    expect(result.stderr.trim().split('\n')).toEqual([fallback('is older than src/main.ts')]);
  });
});
