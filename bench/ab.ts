import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { encodeCursor } from '../src/core/cursor.ts';
import { newPostgresSchema } from './context.ts';
import { measureCpu, type CpuFigures, type CpuTarget } from './cpu.ts';
import { chosenBy, ensureCompiled, folioNodeFlags, freePort, median, probeArgs, root, waitForHttp } from './process.ts';
import { paragraph, vocabulary } from './search.ts';
import { seededRandom } from '../test/support/random.ts';

/**
 * `npm run bench -- --against REV` (or `npm run bench:ab -- REV`): the request path of the working
 * tree (B) against commit REV (A), measured in one run and alternating A, B, A, B… so a machine that
 * speeds up or slows down during the run weighs on both alike. A ratio to a bare route hides a slower
 * database-bound path; this does not. REV's tree is extracted into a temporary folder beside this
 * tree's node_modules and built there. Each side gets its own database, seeded through the REST API
 * so any two versions of the API work, and carries bench/probe.mjs, so each round also gives each
 * side's CPU time and statements per request (cpu.ts, docs/decisions/0051). BENCH_ROUNDS (default
 * 4), BENCH_DURATION (seconds per measurement, default 5), BENCH_CONNECTIONS (default 50),
 * BENCH_ENTRIES (default 2,000), BENCH_DATABASE_URL (postgres://…: one schema a side), BENCH_ONLY
 * (the scenarios whose names contain it).
 */
const rounds = Number(process.env.BENCH_ROUNDS ?? 4);
const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const entries = Number(process.env.BENCH_ENTRIES ?? 2000);
const postgresUrl = process.env.BENCH_DATABASE_URL?.startsWith('postgres') ? process.env.BENCH_DATABASE_URL : undefined;
/** BENCH_ONLY narrows the run to the scenarios whose names contain it (bisecting one figure). */
const only = process.env.BENCH_ONLY;

interface Side {
  name: string;
  tree: string;
  url: string;
  token: string;
  entryId: string;
  /** An entry made halfway through the seeding: a list's cursor from the middle. */
  middleId: string;
  child: ChildProcess;
  /** bench/probe.mjs in the side's server. */
  probe: string;
}

interface Scenario {
  name: string;
  method?: 'GET' | 'POST' | 'PUT';
  /** Request `n`'s path: the same for most, a new one each time where memory must not answer. */
  path: (side: Side, n: number) => string;
  body?: (n: number, side: Side) => unknown;
  headers?: Record<string, string>;
}

const scenarios: Scenario[] = [
  { name: 'GET /settings', path: () => '/_cms/api/settings' },
  { name: 'GET entry by id', path: (side) => `/_cms/api/content/ab/${side.entryId}` },
  { name: 'GET list, limit 50, by a field', path: () => '/_cms/api/content/ab?limit=50&orderBy=rank&order=asc' },
  // The default order (newest first) from the middle: the keyset condition seeks or scans (decisions/0065).
  { name: 'GET list, 50, a page in the middle', path: (side) => `/_cms/api/content/ab?limit=50&cursor=${encodeCursor([side.middleId])}` },
  { name: 'POST create entry', method: 'POST', path: () => '/_cms/api/content/ab', body: (n) => ({ data: { title: `Created ${n}`, rank: n % 997 } }) },
  { name: 'PUT update entry', method: 'PUT', path: (side) => `/_cms/api/content/ab/${side.entryId}`, body: (n) => ({ data: { rank: n % 997 } }) },
  {
    name: 'MCP tools/call content_get',
    method: 'POST',
    path: () => '/_cms/api/mcp',
    headers: { accept: 'application/json, text/event-stream' },
    body: (_n, side) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'content_get', arguments: { collection: 'ab', id: side.entryId } } }),
  },
  // Two middling words of the vocabulary, a different pair each time, as bench/search.ts asks.
  { name: 'GET search, a different query each time', path: (_side, n) => `/_cms/api/search?q=${vocabulary[400 + (n % 200)]}+${vocabulary[600 + (Math.floor(n / 200) % 4000)]}&limit=20` },
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
  return newPostgresSchema(postgresUrl, `ab_${name}_${Date.now()}`);
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
  const probe = probeArgs(await freePort());
  const child = spawn(process.execPath, [...folioNodeFlags(tree), ...probe.nodeArgs, 'bin/folio.mjs', 'serve'], {
    cwd: tree,
    env: { ...process.env, ...env, ...probe.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', LOG_FORMAT: 'json' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/_cms/api/health`);
  const side = { name, tree, url, token, entryId: '', middleId: '', child, probe: `http://127.0.0.1:${probe.env.BENCH_PROBE_PORT}` };
  await api(side, 'POST', '/_cms/api/schema/collections', { slug: 'ab', label: 'Entries' });
  await api(side, 'POST', '/_cms/api/schema/collections/ab/fields', { slug: 'title', label: 'Title', type: 'string', required: true });
  await api(side, 'POST', '/_cms/api/schema/collections/ab/fields', { slug: 'rank', label: 'Rank', type: 'integer' });
  for (let start = 0; start < entries; start += 50) {
    const created = await Promise.all(Array.from({ length: Math.min(50, entries - start) }, (_, i) => api(side, 'POST', '/_cms/api/content/ab', { data: { title: `Entry ${start + i}`, rank: (start + i) % 997 } })));
    side.entryId ||= created[0]!.data.item!.id;
    if (start <= entries / 2 && entries / 2 < start + 50) side.middleId = created[entries / 2 - start]!.data.item!.id;
  }
  // What the search scenario searches: published entries of a title and about 300 words, the same on both sides.
  await api(side, 'POST', '/_cms/api/schema/collections', { slug: 'abs', label: 'Searched', supports: ['drafts', 'revisions', 'search'] });
  await api(side, 'POST', '/_cms/api/schema/collections/abs/fields', { slug: 'title', label: 'Title', type: 'string', required: true, searchable: true });
  await api(side, 'POST', '/_cms/api/schema/collections/abs/fields', { slug: 'body', label: 'Body', type: 'text', searchable: true });
  const next = seededRandom(7);
  for (let start = 0; start < entries; start += 50) {
    const batch = Array.from({ length: Math.min(50, entries - start) }, () => ({ data: { title: paragraph(next, 5), body: paragraph(next, 300) }, status: 'published' }));
    await Promise.all(batch.map((body) => api(side, 'POST', '/_cms/api/content/abs', body)));
  }
  return side;
}

interface Figures {
  requestsPerSecond: number;
  cpu: CpuFigures;
}

/** The scenario's request on a side, for the probe (cpu.ts); its bodies numbered apart from the load's. */
function cpuTarget(side: Side, scenario: Scenario): CpuTarget {
  const headers = { authorization: `Bearer ${side.token}`, ...scenario.headers };
  const body = scenario.body && ((n: number) => scenario.body!(1_000_000 + n, side));
  return { probe: side.probe, request: { url: () => `${side.url}${scenario.path(side, (requestNumber += 1))}`, method: scenario.method, headers, body } };
}

/** Numbers the requests of every measurement, so no search is asked twice in the run (its answer would come from memory). */
let requestNumber = 0;

async function measure(side: Side, scenario: Scenario): Promise<number> {
  const headers = { authorization: `Bearer ${side.token}`, 'content-type': 'application/json', ...scenario.headers };
  const options: autocannon.Options = {
    url: `${side.url}${scenario.path(side, 0)}`,
    headers,
    connections,
    method: scenario.method ?? 'GET',
    requests: [
      {
        setupRequest: (request: autocannon.Request) => {
          const n = (requestNumber += 1);
          return { ...request, path: scenario.path(side, n), ...(scenario.body ? { body: JSON.stringify(scenario.body(n, side)) } : {}) };
        },
      },
    ],
  };
  await autocannon({ ...options, duration: 1 });
  const result = await autocannon({ ...options, duration });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${side.name} ${scenario.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

/**
 * The scenarios both sides answer: an older commit may lack what a newer scenario asks for (wave 1
 * had no search), and is then left out of that scenario, saying so, rather than ending the run.
 */
async function answeredByBoth(sides: Side[], chosen: Scenario[]): Promise<Scenario[]> {
  const answered: Scenario[] = [];
  for (const scenario of chosen) {
    const refusals: string[] = [];
    for (const side of sides) {
      const response = await fetch(`${side.url}${scenario.path(side, 0)}`, {
        method: scenario.method ?? 'GET',
        headers: { authorization: `Bearer ${side.token}`, 'content-type': 'application/json', ...scenario.headers },
        body: scenario.body ? JSON.stringify(scenario.body(0, side)) : undefined,
      });
      await response.arrayBuffer();
      if (!response.ok) refusals.push(`${side.name} answers ${response.status}`);
    }
    if (refusals.length === 0) answered.push(scenario);
    else console.log(`left out: ${scenario.name} (${refusals.join(', ')})`);
  }
  return answered;
}

export async function measureAgainst(base: string): Promise<void> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-ab-'));
  const sides: Side[] = [];
  try {
    checkout(base, path.join(workDir, 'a'));
    ensureCompiled();
    sides.push(await startSide('a', path.join(workDir, 'a'), workDir), await startSide('b', root, workDir));
    const chosen = await answeredByBoth(sides, scenarios.filter((scenario) => chosenBy(only, scenario.name)));
    const figures = new Map(chosen.map((scenario) => [scenario.name, { a: [] as Figures[], b: [] as Figures[] }]));
    for (let round = 0; round < rounds; round += 1) {
      for (const scenario of chosen) {
        // Alternate which side goes first, so neither always measures on a warmer machine.
        const order = round % 2 === 0 ? sides : [...sides].reverse();
        const rates = [];
        for (const side of order) rates.push(await measure(side, scenario));
        // CPU and statements with the two sides' batches interleaved, so both see the same load.
        const cpu = await measureCpu(order.map((side) => cpuTarget(side, scenario)));
        for (const [index, side] of order.entries()) figures.get(scenario.name)![side.name as 'a' | 'b'].push({ requestsPerSecond: rates[index]!, cpu: cpu[index]! });
      }
    }
    report(base, figures);
  } finally {
    for (const side of sides) side.child.kill('SIGTERM');
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

function report(base: string, figures: Map<string, { a: Figures[]; b: Figures[] }>): void {
  const rate = (sample: Figures) => sample.requestsPerSecond;
  const cpu = (sample: Figures) => sample.cpu.cpuMicrosPerRequest;
  const change = (a: number, b: number) => `${((b / a - 1) * 100).toFixed(1)}%`;
  console.log(`\nA/B: A = ${base} (${execFileSync('git', ['rev-parse', '--short', base], { cwd: root, encoding: 'utf8' }).trim()}), B = the working tree; ${postgresUrl ? 'postgres' : 'sqlite'}, ${rounds} rounds of ${duration}s, ${connections} connections, ${entries} entries\n`);
  console.log(['scenario'.padEnd(36), 'A req/s'.padStart(9), 'B req/s'.padStart(9), 'B/A'.padStart(8), 'A CPU µs'.padStart(9), 'B CPU µs'.padStart(9), 'B/A'.padStart(8), 'A stmts'.padStart(8), 'B stmts'.padStart(8), '  rounds B/A req/s'].join(' '));
  for (const [name, { a, b }] of figures) {
    const perRound = a.map((sample, i) => change(rate(sample), rate(b[i]!))).join(' ');
    const [aRate, bRate, aCpu, bCpu] = [median(a.map(rate)), median(b.map(rate)), median(a.map(cpu)), median(b.map(cpu))];
    const statements = (samples: Figures[]) => median(samples.map((sample) => sample.cpu.statementsPerRequest)).toFixed(1).padStart(8);
    console.log(
      [name.padEnd(36), aRate.toFixed(0).padStart(9), bRate.toFixed(0).padStart(9), change(aRate, bRate).padStart(8), aCpu.toFixed(0).padStart(9), bCpu.toFixed(0).padStart(9), change(aCpu, bCpu).padStart(8), statements(a), statements(b), `  ${perRound}`].join(' '),
    );
  }
}
