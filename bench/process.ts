import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Server processes for the benchmarks: started from the repository root, with their stderr shown. */
export const root = path.resolve(import.meta.dirname, '..');

export function startProcess(args: string[], env: Record<string, string>, options: { quiet?: boolean } = {}): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', options.quiet ? 'ignore' : 'inherit'] });
  child.on('exit', (code, signal) => {
    if (code !== null && code !== 0) console.error(`${args.join(' ')} exited with ${code ?? signal}`);
  });
  return child;
}

/** The V8 flags of bin/folio.mjs's first line (`#!/usr/bin/env -S node …`), which `npm start` passes too. */
export function folioNodeFlags(tree = root): string[] {
  const shebang = fs.readFileSync(path.join(tree, 'bin/folio.mjs'), 'utf8').split('\n', 1)[0]!;
  // `env -S node --flags…` since the compiled server; plain `env node` before it (an A/B against an older commit).
  return shebang.replace(/^#!\/usr\/bin\/env\s+(-S\s+)?node\s*/, '').split(/\s+/).filter(Boolean);
}

/** Builds dist/ when the sources changed since: `folio` runs the compiled server, as users do (docs/decisions/0039). */
export function ensureCompiled(): void {
  const build = spawnSync(process.execPath, [path.join(root, 'bin/build.mjs'), '--if-stale'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed: the benchmarks start the compiled server');
}

/** `folio serve` as `npm start` runs it; `nodeArgs` go before the script (the probe's `--import`). */
export function startFolio(env: Record<string, string>, nodeArgs: string[] = []): ChildProcess {
  ensureCompiled();
  return startProcess([...folioNodeFlags(), ...nodeArgs, 'bin/folio.mjs', 'serve'], env);
}

/** The Node arguments and environment that load bench/probe.mjs into a server, answering on `port` (cpu.ts). */
export function probeArgs(port: number): { nodeArgs: string[]; env: Record<string, string> } {
  return { nodeArgs: ['--import', pathToFileURL(path.join(root, 'bench/probe.mjs')).href], env: { BENCH_PROBE_PORT: String(port) } };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export async function waitForHttp(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}


/** A scenario run on its own (BENCH_ONLY) or in the full run: in a temporary folder, removed after; its figures printed and returned. */
export async function measureInTemporaryFolder<F>(name: string, measure: (workDir: string) => Promise<F>, print: (figures: F) => void): Promise<F> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `folio-bench-${name}-`));
  try {
    const figures = await measure(workDir);
    print(figures);
    return figures;
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

/** BENCH_ONLY's test for a scenario: no value takes all; otherwise the names containing one of its `|`-separated parts. */
export function chosenBy(only: string | undefined, name: string): boolean {
  return only === undefined || only.split('|').some((part) => name.includes(part));
}

/** The middle sample (the upper of the two middles for an even count): what the bench reports of repeated runs. */
/** The middle value; of an even count, the mean of the two middle ones (two rounds: their mean, not the slower). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
