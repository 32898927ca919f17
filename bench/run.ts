import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pino from 'pino';
import { createToken } from '../src/auth/operations.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/core/clock.ts';
import { systemPrincipal } from '../src/core/context.ts';
import { runOperation } from '../src/core/operation.ts';
import { openDatabase } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createUser } from '../src/users/operations.ts';

/**
 * `npm run bench`: Folio on loopback with a fresh database, loaded with autocannon, each scenario
 * next to a bare Hono JSON route measured in the same run. BENCH_DURATION (seconds, default 10) and
 * BENCH_CONNECTIONS (default 50) tune it; BENCH_DATABASE_URL runs it on PostgreSQL.
 */
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const root = path.resolve(import.meta.dirname, '..');

interface Scenario {
  name: string;
  path: string;
  /** Minimum share of the baseline's requests per second, where the issue sets one. */
  target?: number;
}

const scenarios: Scenario[] = [
  { name: 'GET /settings (authenticated)', path: '/_cms/api/settings', target: 0.6 },
  { name: 'GET /admin/users (authenticated, 50 users)', path: '/_cms/api/admin/users' },
];

async function main(): Promise<void> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-'));
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? `file:${path.join(workDir, 'folio.db')}`;
  const token = await seed(databaseUrl);
  const children: ChildProcess[] = [];
  try {
    const baselinePort = await freePort();
    children.push(startProcess(['--import', 'tsx', 'bench/baseline-server.ts'], { PORT: String(baselinePort) }));
    const folioPort = await freePort();
    children.push(
      startProcess(['bin/folio.mjs', 'serve'], { PORT: String(folioPort), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', MEDIA_DIR: path.join(workDir, 'media') }),
    );
    await Promise.all([waitForHttp(`http://127.0.0.1:${baselinePort}/`), waitForHttp(`http://127.0.0.1:${folioPort}/_cms/api/health`)]);

    const baseline = await measure(`http://127.0.0.1:${baselinePort}/`, {});
    const rows = [{ scenario: 'baseline: bare Hono JSON route', ...baseline, ratio: 1, target: undefined as number | undefined, met: undefined as boolean | undefined }];
    for (const scenario of scenarios) {
      const result = await measure(`http://127.0.0.1:${folioPort}${scenario.path}`, { authorization: `Bearer ${token}` });
      const ratio = result.requestsPerSecond / baseline.requestsPerSecond;
      rows.push({ scenario: scenario.name, ...result, ratio, target: scenario.target, met: scenario.target === undefined ? undefined : ratio >= scenario.target });
    }
    report(rows, databaseUrl);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

async function seed(databaseUrl: string): Promise<string> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  const db = await openDatabase(config.database);
  try {
    await migrateToLatest(db);
    const ctx = { db, clock: systemClock, config, log: pino({ level: 'silent' }), principal: systemPrincipal };
    const stamp = Date.now();
    const { item: admin } = await runOperation(createUser, ctx, () => ({ email: `bench-admin-${stamp}@example.com`, name: 'Bench admin', role: 50 }));
    for (let index = 1; index < 50; index += 1) {
      await runOperation(createUser, ctx, () => ({ email: `bench-${stamp}-${index}@example.com`, name: `Bench user ${index}`, role: 20 }));
    }
    const { token } = await runOperation(createToken, ctx, () => ({ userId: admin.id, name: 'bench', scopes: ['admin' as const] }));
    return token;
  } finally {
    await db.close();
  }
}

async function measure(url: string, headers: Record<string, string>) {
  // A short warm-up lets the JIT and the connection pools settle before the measured run.
  await autocannon({ url, headers, connections, duration: Math.min(2, duration) });
  const result = await autocannon({ url, headers, connections, duration });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, requests: result.requests.total };
}

function report(rows: { scenario: string; requestsPerSecond: number; p50: number; p99: number; ratio: number; target?: number; met?: boolean }[], databaseUrl: string): void {
  const engine = databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite';
  console.log(`\nFolio benchmark: ${engine}, ${connections} connections, ${duration}s per scenario, node ${process.version}, ${os.cpus().length} cores\n`);
  console.log(['scenario'.padEnd(46), 'req/s'.padStart(9), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'ratio'.padStart(7), '  target'].join(' '));
  for (const row of rows) {
    const target = row.target === undefined ? '' : `  >= ${Math.round(row.target * 100)}% ${row.met ? 'met' : 'NOT MET'}`;
    console.log(
      [row.scenario.padEnd(46), row.requestsPerSecond.toFixed(0).padStart(9), String(row.p50).padStart(8), String(row.p99).padStart(8), `${(row.ratio * 100).toFixed(0)}%`.padStart(7), target].join(' '),
    );
  }
  const results = { date: new Date().toISOString(), engine, connections, durationSeconds: duration, node: process.version, cores: os.cpus().length, rows };
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench/results/latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log('\nwritten to bench/results/latest.json');
}

function startProcess(args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  child.on('exit', (code, signal) => {
    if (code !== null && code !== 0) console.error(`${args.join(' ')} exited with ${code ?? signal}`);
  });
  return child;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitForHttp(url: string, timeoutMs = 30_000): Promise<void> {
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

await main();
