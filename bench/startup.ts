import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { ensureCompiled, folioNodeFlags, freePort, measureInTemporaryFolder, root } from './process.ts';

/**
 * Start-up (issue 29, item 3): from spawning a process to its first answer, each against Node.js doing
 * nothing (`node -e ''`) timed the same way. `folio --help` answers when it exits; `folio serve` when
 * GET /_cms/api/health first answers 200, on a database migrated beforehand (a restart, not a first
 * install). `tsx src/main.ts`, what `npm run dev` runs, shows what the build saves. BENCH_STARTUP_RUNS
 * (default 10) runs of each, interleaved; the median is the figure.
 */
export interface StartupFigures {
  runs: number;
  /** Median milliseconds. */
  nodeNothingMs: number;
  helpMs: number;
  helpFromSourcesMs: number;
  serveMs: number;
  serveFromSourcesMs: number;
  /** The targets: `folio --help` well under a second, the server answering within 2 s. */
  helpTargetMet: boolean;
  serveTargetMet: boolean;
}

const helpTargetMs = 1000;
const serveTargetMs = 2000;

/** Milliseconds from spawn to exit (exit code 0 required). */
function timeToExit(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(performance.now() - began) : reject(new Error(`node ${args.join(' ')} exited with ${code}: ${stderr}`))));
  });
}

/** Milliseconds from spawn to the first 200 of GET /_cms/api/health; the server is stopped after. */
async function timeToHealth(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const port = await freePort();
  const began = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let exited = false;
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const gone = new Promise<void>((resolve) => child.once('close', () => resolve()));
  void gone.then(() => (exited = true));
  try {
    for (;;) {
      if (exited) throw new Error(`folio serve exited before answering: ${stderr}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/_cms/api/health`);
        await response.body?.cancel();
        if (response.ok) return performance.now() - began;
      } catch {
        // not listening yet: asked again 5 ms later, so the figure is the start's more than the poll's
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    child.kill('SIGKILL');
    await gone;
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export async function measureStartup(workDir: string, runs = Number(process.env.BENCH_STARTUP_RUNS ?? 10)): Promise<StartupFigures> {
  ensureCompiled();
  const flags = folioNodeFlags();
  const databaseUrl = `file:${path.join(workDir, 'startup.db')}`;
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, MEDIA_DIR: path.join(workDir, 'startup-media'), LOG_LEVEL: 'silent', LOG_FORMAT: 'json' };
  await timeToExit([...flags, 'bin/folio.mjs', 'migrate'], env);
  const tsx = ['--import', 'tsx', 'src/main.ts'];
  const samples = { nothing: [] as number[], help: [] as number[], helpFromSources: [] as number[], serve: [] as number[], serveFromSources: [] as number[] };
  // One warm-up of each, not counted: the first reads every file from disk (and fills tsx's cache).
  for (let run = -1; run < runs; run += 1) {
    const nothing = await timeToExit(['-e', ''], env);
    const help = await timeToExit([...flags, 'bin/folio.mjs', '--help'], env);
    const helpFromSources = await timeToExit([...flags, ...tsx, '--help'], env);
    const serve = await timeToHealth([...flags, 'bin/folio.mjs', 'serve'], env);
    const serveFromSources = await timeToHealth([...flags, ...tsx, 'serve'], env);
    if (run < 0) continue;
    samples.nothing.push(nothing);
    samples.help.push(help);
    samples.helpFromSources.push(helpFromSources);
    samples.serve.push(serve);
    samples.serveFromSources.push(serveFromSources);
  }
  const helpMs = median(samples.help);
  const serveMs = median(samples.serve);
  return {
    runs,
    nodeNothingMs: median(samples.nothing),
    helpMs,
    helpFromSourcesMs: median(samples.helpFromSources),
    serveMs,
    serveFromSourcesMs: median(samples.serveFromSources),
    helpTargetMet: helpMs < helpTargetMs,
    serveTargetMet: serveMs < serveTargetMs,
  };
}

export function printStartup(figures: StartupFigures): void {
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(`\nStart-up, spawn to first answer (median of ${figures.runs}, ${os.cpus().length} cores):`);
  console.log(`  node -e '' (doing nothing)              ${ms(figures.nodeNothingMs)}`);
  console.log(`  folio --help                            ${ms(figures.helpMs)} (target < ${helpTargetMs} ms: ${met(figures.helpTargetMet)})`);
  console.log(`  folio serve to GET /_cms/api/health 200 ${ms(figures.serveMs)} (target < ${serveTargetMs} ms: ${met(figures.serveTargetMet)})`);
  console.log(`  from the sources through tsx (npm run dev): --help ${ms(figures.helpFromSourcesMs)}, serve ${ms(figures.serveFromSourcesMs)}`);
}

/** BENCH_ONLY=startup, or part of the full run. */
export function benchStartup(): Promise<StartupFigures> {
  return measureInTemporaryFolder('startup', (workDir) => measureStartup(workDir), printStartup);
}
