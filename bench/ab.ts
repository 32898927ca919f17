import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { ensureCompiled, folioNodeFlags, freePort, root, waitForHttp } from './process.ts';

/**
 * `npm run bench:ab -- REV`: the request path of the working tree (B) against commit REV (A), measured
 * in one run and alternating A, B, A, B… so a machine that speeds up or slows down during the run
 * weighs on both alike. A ratio to a bare route hides a slower database-bound path; this does not.
 * Each side gets its own database, seeded through the REST API so any two versions of the API work.
 * BENCH_AB_ROUNDS (default 4), BENCH_DURATION (seconds per measurement, default 5), BENCH_CONNECTIONS
 * (default 50), BENCH_AB_ENTRIES (default 2,000), BENCH_DATABASE_URL (postgres://…: one schema a side),
 * BENCH_AB_ONLY (the scenarios whose names contain it).
 */
const base = process.argv[2] ?? process.env.BENCH_AB_BASE ?? 'HEAD';
const rounds = Number(process.env.BENCH_AB_ROUNDS ?? 4);
const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const entries = Number(process.env.BENCH_AB_ENTRIES ?? 2000);
const postgresUrl = process.env.BENCH_DATABASE_URL?.startsWith('postgres') ? process.env.BENCH_DATABASE_URL : undefined;
/** BENCH_AB_ONLY narrows the run to the scenarios whose names contain it (bisecting one figure). */
const only = process.env.BENCH_AB_ONLY;

interface Side {
  name: string;
  tree: string;
  url: string;
  token: string;
  entryId: string;
  child: ChildProcess;
}

interface Scenario {
  name: string;
  method?: 'GET' | 'POST' | 'PUT';
  path: (side: Side) => string;
  body?: (n: number, side: Side) => unknown;
  headers?: Record<string, string>;
}

const scenarios: Scenario[] = [
  { name: 'GET /settings', path: () => '/_cms/api/settings' },
  { name: 'GET entry by id', path: (side) => `/_cms/api/content/ab/${side.entryId}` },
  { name: 'GET list, limit 50, by a field', path: () => '/_cms/api/content/ab?limit=50&orderBy=rank&order=asc' },
  { name: 'POST create entry', method: 'POST', path: () => '/_cms/api/content/ab', body: (n) => ({ data: { title: `Created ${n}`, rank: n % 997 } }) },
  { name: 'PUT update entry', method: 'PUT', path: (side) => `/_cms/api/content/ab/${side.entryId}`, body: (n) => ({ data: { rank: n % 997 } }) },
  {
    name: 'MCP tools/call content_get',
    method: 'POST',
    path: () => '/_cms/api/mcp',
    headers: { accept: 'application/json, text/event-stream' },
    body: (_n, side) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'content_get', arguments: { collection: 'ab', id: side.entryId } } }),
  },
];

/** The tree of `rev`, extracted beside the working tree's node_modules, and compiled where it has a build (docs/decisions/0039). */
function checkout(rev: string, dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['archive', '--format=tar', rev], { cwd: root, maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  if (fs.existsSync(path.join(dir, 'bin/build.mjs'))) execFileSync(process.execPath, ['bin/build.mjs'], { cwd: dir, stdio: 'inherit' });
}

async function databaseUrl(workDir: string, name: string): Promise<string> {
  if (!postgresUrl) return `file:${path.join(workDir, `${name}.db`)}`;
  const schema = `ab_${name}_${Date.now()}`;
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  const url = new URL(postgresUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

function cli(tree: string, env: Record<string, string>, args: string[]): string {
  return execFileSync(process.execPath, ['bin/folio.mjs', ...args], { cwd: tree, env: { ...process.env, ...env, LOG_LEVEL: 'warn' }, encoding: 'utf8' }).trim();
}

async function api(side: Pick<Side, 'url' | 'token'>, method: string, apiPath: string, body?: unknown): Promise<{ data: { item?: { id: string } } }> {
  const response = await fetch(`${side.url}${apiPath}`, { method, headers: { authorization: `Bearer ${side.token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${apiPath}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { data: { item?: { id: string } } };
}

async function startSide(name: string, tree: string, workDir: string): Promise<Side> {
  const env = { DATABASE_URL: await databaseUrl(workDir, name), MEDIA_DIR: path.join(workDir, `${name}-media`) };
  cli(tree, env, ['migrate']);
  cli(tree, env, ['admin', 'create', '--email', 'ab@example.com', '--name', 'AB']);
  const token = cli(tree, env, ['token', 'create', '--email', 'ab@example.com', '--name', 'ab', '--scopes', 'admin']);
  const port = await freePort();
  const child = spawn(process.execPath, [...folioNodeFlags(tree), 'bin/folio.mjs', 'serve'], { cwd: tree, env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', LOG_FORMAT: 'json' }, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/_cms/api/health`);
  const side = { name, tree, url, token, entryId: '', child };
  await api(side, 'POST', '/_cms/api/schema/collections', { slug: 'ab', label: 'Entries' });
  await api(side, 'POST', '/_cms/api/schema/collections/ab/fields', { slug: 'title', label: 'Title', type: 'string', required: true });
  await api(side, 'POST', '/_cms/api/schema/collections/ab/fields', { slug: 'rank', label: 'Rank', type: 'integer' });
  for (let start = 0; start < entries; start += 50) {
    const created = await Promise.all(Array.from({ length: Math.min(50, entries - start) }, (_, i) => api(side, 'POST', '/_cms/api/content/ab', { data: { title: `Entry ${start + i}`, rank: (start + i) % 997 } })));
    side.entryId ||= created[0]!.data.item!.id;
  }
  return side;
}

async function measure(side: Side, scenario: Scenario): Promise<number> {
  let n = 0;
  const headers = { authorization: `Bearer ${side.token}`, 'content-type': 'application/json', ...scenario.headers };
  const options: autocannon.Options = {
    url: `${side.url}${scenario.path(side)}`,
    headers,
    connections,
    method: scenario.method ?? 'GET',
    requests: scenario.body ? [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: JSON.stringify(scenario.body!((n += 1), side)) }) }] : undefined,
  };
  await autocannon({ ...options, duration: 1 });
  const result = await autocannon({ ...options, duration });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${side.name} ${scenario.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-ab-'));
  const sides: Side[] = [];
  try {
    checkout(base, path.join(workDir, 'a'));
    ensureCompiled();
    sides.push(await startSide('a', path.join(workDir, 'a'), workDir), await startSide('b', root, workDir));
    const chosen = scenarios.filter((scenario) => only === undefined || scenario.name.includes(only));
    const figures = new Map(chosen.map((scenario) => [scenario.name, { a: [] as number[], b: [] as number[] }]));
    for (let round = 0; round < rounds; round += 1) {
      for (const scenario of chosen) {
        // Alternate which side goes first, so neither always measures on a warmer machine.
        const order = round % 2 === 0 ? sides : [...sides].reverse();
        for (const side of order) figures.get(scenario.name)![side.name as 'a' | 'b'].push(await measure(side, scenario));
      }
    }
    console.log(`\nA/B: A = ${base} (${execFileSync('git', ['rev-parse', '--short', base], { cwd: root, encoding: 'utf8' }).trim()}), B = the working tree; ${postgresUrl ? 'postgres' : 'sqlite'}, ${rounds} rounds of ${duration}s, ${connections} connections, ${entries} entries\n`);
    console.log(['scenario'.padEnd(36), 'A req/s'.padStart(9), 'B req/s'.padStart(9), 'B/A'.padStart(8), '  rounds B/A'].join(' '));
    for (const [name, { a, b }] of figures) {
      const perRound = a.map((value, i) => `${((b[i]! / value - 1) * 100).toFixed(1)}%`).join(' ');
      console.log([name.padEnd(36), median(a).toFixed(0).padStart(9), median(b).toFixed(0).padStart(9), `${((median(b) / median(a) - 1) * 100).toFixed(1)}%`.padStart(8), `  ${perRound}`].join(' '));
    }
  } finally {
    for (const side of sides) side.child.kill('SIGTERM');
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
