import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { runOperation } from '../src/core/operation.ts';
import { roles } from '../src/core/roles.ts';
import { createUser } from '../src/users/operations.ts';
import { createEntry } from '../src/content/operations.ts';
import { encodeCursor } from '../src/core/cursor.ts';
import { entryTableName } from '../src/db/entry-tables.ts';
import { createCollection, createField } from '../src/schema/operations.ts';
import { measureBodyBurst } from './body-burst.ts';
import { benchAdmin, withBenchContext } from './context.ts';
import { measureImport, printImport } from './import.ts';
import { measureImportMedia, printImportMedia } from './import-media.ts';
import { mediaStaticFile, measureMedia, printMedia } from './media.ts';
import { measureMove, printMove } from './move.ts';
import { measureTransformLimits, printTransformLimits } from './media-transform-limits.ts';
import { benchMenuItems, benchMenuName, seedBenchMenu } from './menus.ts';
import { benchCommentBody, benchCommentLimits, seedBenchComments, type SeededComments } from './comments.ts';
import { profileArgs } from './profile.ts';
import { chosenBy, freePort, median, probeArgs, root, startFolio, startProcess, waitForHttp } from './process.ts';
import { measureCpu, type CpuFigures, type CpuTarget } from './cpu.ts';
import { measureAgainst } from './ab.ts';
import { measureSchemaChanges } from './schema-change.ts';
import { seedTerms, type SeededTerms } from './site-structure.ts';
import { measureSearch, printSearch } from './search.ts';
import { measurePlugins, printPlugins } from './plugins.ts';
import { benchStartup } from './startup.ts';
import { benchPanel } from './panel.ts';
import { benchSiteArchive } from './site-archive.ts';
import { measureWizardImport, printWizardImport } from './panel-import.ts';

/**
 * `npm run bench`: Folio on loopback with a fresh database, loaded with autocannon, each scenario
 * next to a bare Hono JSON route measured in the same run, and the hottest four next to a hand-written
 * route doing the same work (same-work.ts); each with its CPU time and statements per request
 * (cpu.ts, docs/decisions/0051). BENCH_DURATION (seconds, default 10) and BENCH_CONNECTIONS (default
 * 50) tune it; BENCH_DATABASE_URL runs it on PostgreSQL. `npm run bench -- --against REV` is the A/B
 * mode instead (ab.ts).
 */
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** How many turns each of Folio and a same-work route gets in measureInTurns. */
const sameWorkTurns = Number(process.env.BENCH_SAME_WORK_TURNS ?? 4);

interface Scenario {
  name: string;
  method?: 'GET' | 'POST' | 'PUT';
  path: string;
  /** A JSON body; a function makes a new one per request (creates need distinct titles). */
  body?: unknown | ((n: number) => unknown);
  headers?: Record<string, string>;
  /** What the issue asks for: a share of the baseline's requests per second, or an absolute rate. */
  target?: { ratio: number } | { requestsPerSecond: number };
  /** The same-work baseline's path (same-work.ts) and the share of its req/s Folio should reach (issue 32). */
  sameWork?: { path: string; ratio: number };
  /** Sent without the admin's token, as the public would. */
  anonymous?: true;
}

const seededEntries = Number(process.env.BENCH_ENTRIES ?? 10_000);
/**
 * BENCH_ONLY narrows a run when working on one area: `media` measures the media figures alone, `import`
 * the WordPress import alone (BENCH_IMPORT_SMALL, BENCH_IMPORT_LARGE posts; default 10,000 and 50,000),
 * `import-wizard` the panel's import wizard against the CLI (BENCH_WIZARD_POSTS, BENCH_WIZARD_ROUNDS; default 10,000 and 4),
 * `import-media` its media download and URL rewrite alone (BENCH_IMPORT_IMAGES images, default 500;
 * BENCH_REWRITE_ENTRIES entries and BENCH_REWRITE_MAP URLs, default 20,000 and 5,000); any other value,
 * `transform-limits` the image transform limits alone (decisions/0033) on a database holding only an admin;
 * `startup` the start-up times alone (`folio --help` and `folio serve` to its first answer, decisions/0039);
 * `panel` the administration panel in chromium alone (its JavaScript, its first rows on 100,000 entries);
 * `move` `folio move` alone (BENCH_MOVE_ENTRIES, BENCH_MOVE_MEDIA, BENCH_MOVE_MEDIA_BYTES; to BENCH_DATABASE_URL);
 * `site-archive` the site archive's export and restore alone (BENCH_ARCHIVE_ENTRIES entries, BENCH_ARCHIVE_MEDIA
 * media files of 0.5 MiB; default 100,000 and 2,000: site-archive.ts);
 * any other value, the request-path scenarios whose names contain it, or one of its `|`-separated parts
 * (`BENCH_ONLY="GET entry|MCP"`; no schema change, burst or media).
 */
const only = process.env.BENCH_ONLY;
const mediaOnly = only === 'media';

const menuScenario: Scenario = { name: `GET menu (${benchMenuItems} items, 3 levels, 2 collections)`, path: `/_cms/api/menus/${benchMenuName}` };

function scenarios(seeded: Seeded): Scenario[] {
  const entry = `/_cms/api/content/bench/${seeded.entryId}`;
  return [
    { name: 'GET /settings (authenticated)', path: '/_cms/api/settings', target: { ratio: 0.6 } },
    { name: 'GET /admin/users (authenticated, 50 users)', path: '/_cms/api/admin/users' },
    { name: `GET entry by id (${seededEntries} entries)`, path: entry, target: { ratio: 0.5 }, sameWork: { path: `/same/content/bench/${seeded.entryId}`, ratio: 0.7 } },
    {
      name: 'GET list, limit 50, ordered by a field',
      path: '/_cms/api/content/bench?limit=50&orderBy=rank&order=asc',
      target: { requestsPerSecond: 2000 },
      sameWork: { path: '/same/content/bench?limit=50', ratio: 0.6 },
    },
    // The default order (newest first), from the middle entry on: the keyset condition must seek, not scan the entries before it.
    { name: 'GET list, 50, a page in the middle', path: `/_cms/api/content/bench?limit=50&cursor=${encodeCursor([seeded.entryId])}` },
    // Before the writes below, which add entries holding no term: the lists by term see the seeded collection.
    { name: 'GET terms, 2,000 five deep, page of 100', path: '/_cms/api/taxonomies/topic/terms?limit=100' },
    { name: 'GET terms, a page in the middle', path: `/_cms/api/taxonomies/topic/terms?limit=100&cursor=${seeded.middleTermCursor}` },
    { name: 'GET list, limit 50, by a tag on 1/10', path: `/_cms/api/content/bench?limit=50&term=${seeded.terms.busyTag}`, target: { requestsPerSecond: 1500 } },
    { name: 'GET list, limit 50, by a topic and descendants', path: `/_cms/api/content/bench?limit=50&term=${seeded.terms.topTopic}` },
    { name: 'GET list, limit 50, by a rare topic', path: `/_cms/api/content/bench?limit=50&term=${seeded.terms.leafTopic}` },
    menuScenario,
    {
      name: 'POST create entry',
      method: 'POST',
      path: '/_cms/api/content/bench',
      body: (n: number) => ({ data: benchData(seededEntries + n) }),
      target: { requestsPerSecond: 1000 },
      sameWork: { path: '/same/content/bench', ratio: 0.6 },
    },
    { name: 'PUT update entry', method: 'PUT', path: entry, body: (n: number) => ({ data: { rank: n } }) },
    {
      name: 'MCP tools/call content_get',
      method: 'POST',
      path: '/_cms/api/mcp',
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'content_get', arguments: { collection: 'bench', id: seeded.entryId } } },
      target: { ratio: 0.25 },
      sameWork: { path: '/same/mcp', ratio: 0.7 },
    },
    { name: 'GET comments, first 50 approved', path: seeded.comments.readPath, target: { requestsPerSecond: 3000 } },
    { name: 'POST comment (moderation on)', method: 'POST', path: seeded.comments.postPath, body: benchCommentBody, anonymous: true, target: { requestsPerSecond: 1000 } },
  ];
}

/** Six fields of mixed types, as the benchmark asks. */
const benchFields = [
  { slug: 'title', label: 'Title', type: 'string' as const, required: true },
  { slug: 'rank', label: 'Rank', type: 'integer' as const },
  { slug: 'price', label: 'Price', type: 'number' as const },
  { slug: 'featured', label: 'Featured', type: 'boolean' as const },
  { slug: 'category', label: 'Category', type: 'select' as const, validation: { options: ['news', 'guide', 'review'] } },
  { slug: 'body', label: 'Body', type: 'portableText' as const },
];

function benchData(n: number) {
  return {
    title: `Bench entry ${n}`,
    rank: n % 997,
    price: (n % 1000) / 10,
    featured: n % 3 === 0,
    category: ['news', 'guide', 'review'][n % 3],
    body: `## Entry ${n}\n\nSome *body* text with a [link](https://example.com/${n}).`,
  };
}

/**
 * The import figures (issue 15): 10,000 posts (under 10 s on SQLite), then 50,000 in a 100 MB export (peak
 * RSS at most 200 MB); then (issue 34) 10,000 items with about 50,000 comments (under 30 s, RSS under 200 MB).
 */
async function benchImport(workDir: string): Promise<void> {
  const small = Number(process.env.BENCH_IMPORT_SMALL ?? 10_000);
  const runs = [await measureImport(workDir, small, 800), await measureImport(workDir, Number(process.env.BENCH_IMPORT_LARGE ?? 50_000), 800), await measureImport(workDir, small, 800, 6)];
  printImport(runs);
  saveResults({ import: runs });
}

/** The import wizard's figures (issue 33): its progress at least once a second, at most 5% on the import's time. */
async function benchWizardImport(workDir: string): Promise<void> {
  const figures = await measureWizardImport(workDir);
  printWizardImport(figures);
  saveResults({ importWizard: figures });
}

/** The media import figures (issue 16): 500 images at concurrency 1 and 4, then a rewrite of 20,000 entries with a 5,000-URL map. */
async function benchImportMedia(workDir: string): Promise<void> {
  const env = process.env;
  const figures = await measureImportMedia(workDir, Number(env.BENCH_IMPORT_IMAGES ?? 500), Number(env.BENCH_REWRITE_ENTRIES ?? 20_000), Number(env.BENCH_REWRITE_MAP ?? 5_000));
  printImportMedia(figures);
  saveResults({ importMedia: figures });
}

/**
 * The move figures (issue 35): BENCH_MOVE_ENTRIES entries with two revisions each (default 100,000)
 * and BENCH_MOVE_MEDIA files of BENCH_MOVE_MEDIA_BYTES (default 2,000 of 500 KB) moved from SQLite to
 * BENCH_DATABASE_URL (PostgreSQL; a SQLite file without it) in under 2 minutes, then a short catch-up.
 */
async function benchMove(workDir: string): Promise<void> {
  const env = process.env;
  const postgresUrl = env.BENCH_DATABASE_URL?.startsWith('postgres') ? env.BENCH_DATABASE_URL : undefined;
  const figures = await measureMove(workDir, Number(env.BENCH_MOVE_ENTRIES ?? 100_000), Number(env.BENCH_MOVE_MEDIA ?? 2_000), Number(env.BENCH_MOVE_MEDIA_BYTES ?? 500_000), postgresUrl);
  printMove(figures);
  saveResults({ move: figures });
}

/** The transform limits (issue 36): the 8000 x 8000 case, a burst of 20 new variants, other requests meanwhile. */
async function benchTransformLimits(workDir: string, databaseUrl?: string, token?: string): Promise<void> {
  const url = databaseUrl ?? process.env.BENCH_DATABASE_URL ?? `file:${path.join(workDir, 'folio.db')}`;
  const admin = token ?? (await withBenchContext(url, (ctx) => benchAdmin(ctx, `bench-transforms-${Date.now()}@example.com`))).token;
  // As `npm start` runs it (glibc's trim threshold fixed by bin/server-process.mjs).
  const figures = await measureTransformLimits({ databaseUrl: url, mediaDir: path.join(workDir, 'media'), workDir, token: admin });
  printTransformLimits(figures);
  saveResults({ transformLimits: figures });
}

async function main(): Promise<void> {
  const against = process.argv.indexOf('--against');
  if (against !== -1) {
    const base = process.argv[against + 1];
    if (base === undefined) throw new Error('--against needs a commit: npm run bench -- --against REV');
    return measureAgainst(base);
  }
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-'));
  // The areas measured alone, each on its own server and data.
  const aloneRuns: Record<string, (dir: string) => Promise<void>> = {
    import: benchImport,
    'import-wizard': benchWizardImport,
    'import-media': benchImportMedia,
    'transform-limits': (dir) => benchTransformLimits(dir),
    move: benchMove,
    startup: async () => saveResults({ startup: await benchStartup() }),
    panel: async () => saveResults({ panel: await benchPanel() }),
    'site-archive': async () => saveResults({ siteArchive: await benchSiteArchive() }),
  };
  const alone = only === undefined ? undefined : aloneRuns[only];
  if (alone) {
    try {
      return await alone(workDir);
    } finally {
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  }
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? `file:${path.join(workDir, 'folio.db')}`;
  const seeded = await seed(databaseUrl);
  const token = seeded.token;
  const children: ChildProcess[] = [];
  try {
    const baselinePort = await freePort();
    const baselineProbe = probeArgs(await freePort());
    children.push(
      startProcess([...profileArgs('baseline'), ...baselineProbe.nodeArgs, '--import', 'tsx', 'bench/baseline-server.ts'], {
        PORT: String(baselinePort),
        STATIC_FILE: mediaStaticFile(workDir),
        SAME_WORK_DATABASE_URL: databaseUrl,
        ...baselineProbe.env,
      }),
    );
    const folioPort = await freePort();
    const folioProbe = probeArgs(await freePort());
    children.push(
      // The webhook figures need a receiver on loopback.
      startFolio(
        { PORT: String(folioPort), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', LOG_FORMAT: 'json', MEDIA_DIR: path.join(workDir, 'media'), OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true', ...benchCommentLimits, ...folioProbe.env },
        [...profileArgs('folio'), ...folioProbe.nodeArgs],
      ),
    );
    await Promise.all([waitForHttp(`http://127.0.0.1:${baselinePort}/`), waitForHttp(`http://127.0.0.1:${folioPort}/_cms/api/health`)]);
    const servers: Servers = {
      baseline: `http://127.0.0.1:${baselinePort}`,
      baselineProbe: `http://127.0.0.1:${baselineProbe.env.BENCH_PROBE_PORT}`,
      folio: `http://127.0.0.1:${folioPort}`,
      folioProbe: `http://127.0.0.1:${folioProbe.env.BENCH_PROBE_PORT}`,
    };

    if (!mediaOnly) await measureRequestPath(seeded, databaseUrl, workDir, servers);
    if (only === undefined || only === 'search') printSearch(await measureSearch({ databaseUrl, folioUrl: `http://127.0.0.1:${folioPort}`, baselineUrl: `http://127.0.0.1:${baselinePort}/`, token, connections, duration }), databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite', connections);
    if (only === undefined || only === 'plugins') {
      const plugins = await measurePlugins({
        databaseUrl,
        folioUrl: `http://127.0.0.1:${folioPort}`,
        token,
        entryPath: `/_cms/api/content/bench/${seeded.entryId}`,
        createPath: '/_cms/api/content/bench',
        createBody: (n) => ({ data: benchData(n) }),
        measure: (folioPath, scenario) => measure(`http://127.0.0.1:${folioPort}${folioPath}`, { authorization: `Bearer ${token}` }, scenario),
      });
      printPlugins(plugins);
      saveResults({ plugins });
    }
    if (only !== undefined && !mediaOnly) return;
    const media = await measureMedia({ databaseUrl, mediaDir: path.join(workDir, 'media'), workDir, token, baselineUrl: `http://127.0.0.1:${baselinePort}`, connections, duration });
    printMedia(media);
    saveResults({ media });
    if (only === undefined) {
      saveResults({ startup: await benchStartup() });
      saveResults({ panel: await benchPanel() });
      await benchTransformLimits(workDir, databaseUrl, token);
      await benchImport(workDir);
      await benchWizardImport(workDir);
      await benchImportMedia(workDir);
      saveResults({ siteArchive: await benchSiteArchive() });
      await benchMove(workDir);
    }
  } finally {
    for (const child of children) child.kill('SIGTERM');
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

/** The request-path scenarios against the baseline, then schema changes and the body burst. */
async function measureRequestPath(seeded: Seeded, databaseUrl: string, workDir: string, servers: Servers): Promise<void> {
  const token = seeded.token;
  const baseline = await measure(`${servers.baseline}/`, {});
  const bare: CpuTarget = { probe: servers.baselineProbe, request: { url: `${servers.baseline}/` } };
  const [bareCpu] = await measureCpu([bare]);
  const rows: Row[] = [{ scenario: 'baseline: bare Hono JSON route', ...baseline, ratio: 1, cpu: bareCpu!, bareCpuMicros: bareCpu!.cpuMicrosPerRequest }];
  for (const scenario of scenarios(seeded).filter((candidate) => chosenBy(only, candidate.name))) {
    const headers = { ...scenario.headers, ...(scenario.anonymous ? {} : { authorization: `Bearer ${token}` }) };
    const sameUrl = scenario.sameWork && `${servers.baseline}${scenario.sameWork.path}`;
    if (sameUrl && (scenario.method !== 'POST' || scenario.path.endsWith('/mcp'))) await expectSameAnswer(`${servers.folio}${scenario.path}`, sameUrl, { method: scenario.method, headers, body: scenario.body });
    const [result, same] = sameUrl ? await measureInTurns([`${servers.folio}${scenario.path}`, sameUrl], headers, scenario) : [await measure(`${servers.folio}${scenario.path}`, headers, scenario), undefined];
    const ratio = result.requestsPerSecond / baseline.requestsPerSecond;
    const target = scenario.target;
    const met = target === undefined ? undefined : 'ratio' in target ? ratio >= target.ratio : result.requestsPerSecond >= target.requestsPerSecond;
    const probed = { method: scenario.method, headers, body: scenario.body };
    const folio: CpuTarget = { probe: servers.folioProbe, request: { url: `${servers.folio}${scenario.path}`, ...probed } };
    if (!scenario.sameWork || !sameUrl || !same) {
      const [cpu, bareNow] = await measureCpu([folio, bare]);
      rows.push({ scenario: scenario.name, ...result, ratio, target: describeTarget(target), met, cpu: cpu!, bareCpuMicros: bareNow!.cpuMicrosPerRequest });
      continue;
    }
    const sameRatio = result.requestsPerSecond / same.requestsPerSecond;
    const [cpu, bareNow, sameCpu] = await measureCpu([folio, bare, { probe: servers.baselineProbe, request: { url: sameUrl, ...probed } }]);
    rows.push({
      scenario: scenario.name,
      ...result,
      ratio,
      target: describeTarget(target),
      met,
      cpu: cpu!,
      bareCpuMicros: bareNow!.cpuMicrosPerRequest,
      sameWork: { requestsPerSecond: same.requestsPerSecond, ratio: sameRatio, target: scenario.sameWork.ratio, met: sameRatio >= scenario.sameWork.ratio, cpu: sameCpu! },
    });
  }
  report(rows, databaseUrl);
  if (only !== undefined) return;
  const schema = await measureSchemaChanges(databaseUrl, Number(process.env.BENCH_SCHEMA_ENTRIES ?? 100_000));
  console.log(
    `\nSchema changes on ${schema.entries} entries: add a field ${schema.addFieldMs.toFixed(0)} ms, remove it ${schema.removeFieldMs.toFixed(0)} ms; ` +
      `first page sorted by a field ${schema.sortedPageMs.toFixed(1)} ms; other fields intact: ${schema.otherFieldsIntact}`,
  );
  saveResults({ schemaChanges: schema });
  const burst = await measureBodyBurst(databaseUrl, path.join(workDir, 'media'), token);
  console.log(
    `\nBody burst: ${burst.requests} parallel ${Math.round(burst.bodyBytes / 1024 / 1024)} MiB JSON bodies: answers ${JSON.stringify(burst.statuses)}; ` +
      `server RSS ${burst.rssBeforeMb.toFixed(0)} MB before, peak ${burst.peakRssMb.toFixed(0)} MB`,
  );
  saveResults({ bodyBurst: burst });
}

interface Seeded {
  token: string;
  entryId: string;
  terms: SeededTerms;
  middleTermCursor: string;
  comments: SeededComments;
}

function describeTarget(target: Scenario['target']): string | undefined {
  if (target === undefined) return undefined;
  return 'ratio' in target ? `>= ${Math.round(target.ratio * 100)}%` : `>= ${target.requestsPerSecond} req/s`;
}

async function seed(databaseUrl: string): Promise<Seeded> {
  return withBenchContext(databaseUrl, async (ctx) => {
    const stamp = Date.now();
    const { token } = await benchAdmin(ctx, `bench-admin-${stamp}@example.com`);
    for (let index = 1; index < 50; index += 1) {
      await runOperation(createUser, ctx, () => ({ email: `bench-${stamp}-${index}@example.com`, name: `Bench user ${index}`, role: roles.contributor }));
    }
    const { item: collection } = await runOperation(createCollection, ctx, () => ({ slug: 'bench', label: 'Bench entries' }));
    for (const field of benchFields) await runOperation(createField, ctx, () => ({ collection: 'bench', ...field }));
    let entryId = '';
    for (let n = 0; n < seededEntries; n += 1) {
      const { item } = await runOperation(createEntry, ctx, () => ({ collection: 'bench', data: benchData(n), status: n % 2 ? ('published' as const) : undefined }));
      if (n === Math.floor(seededEntries / 2)) entryId = item.id;
    }
    const terms = await seedTerms(ctx, 'bench', entryTableName(collection.id));
    const middleTermCursor = encodeCursor(['topic-3-200']);
    await seedBenchMenu(ctx);
    const comments = await seedBenchComments(ctx);
    // What autovacuum (PostgreSQL) or PRAGMA optimize (SQLite) does on a live database soon after bulk
    // writes: without statistics PostgreSQL guesses that few rows are outside the trash and sorts.
    await sql`analyze`.execute(ctx.db.kysely);
    return { token, entryId, terms, middleTermCursor, comments };
  });
}

function loadOptions(url: string, headers: Record<string, string>, scenario: Pick<Scenario, 'method' | 'body'> = {}): autocannon.Options {
  let n = 0;
  const { method = 'GET', body } = scenario;
  const bodyOf = () => JSON.stringify(typeof body === 'function' ? (body as (n: number) => unknown)((n += 1)) : body);
  const withBody = body === undefined ? {} : { headers: { ...headers, 'content-type': 'application/json' } };
  return {
    url,
    headers,
    connections,
    method,
    ...withBody,
    requests: body === undefined ? undefined : [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: bodyOf() }) }],
  };
}

async function load(options: autocannon.Options, seconds: number): Promise<autocannon.Result> {
  const result = await autocannon({ ...options, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${options.url}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  return result;
}

interface Measured {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  requests: number;
}

async function measure(url: string, headers: Record<string, string>, scenario: Pick<Scenario, 'method' | 'body'> = {}): Promise<Measured> {
  const options = loadOptions(url, headers, scenario);
  // A short warm-up lets the JIT and the connection pools settle before the measured run.
  await autocannon({ ...options, duration: Math.min(2, duration) });
  const result = await load(options, duration);
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, requests: result.requests.total };
}

/**
 * Folio's route and its same-work route loaded in turns, `sameWorkTurns` each (the order swapped
 * every round), for `duration` seconds in all each: this machine's load drifts over a minute, and
 * measured one after the other the ratio of the two moved from 42% to 92% between runs of the same
 * code. req/s is each side's requests over its seconds; p50 and p99 the median of its turns'.
 */
async function measureInTurns(urls: readonly [string, string], headers: Record<string, string>, scenario: Pick<Scenario, 'method' | 'body'>): Promise<[Measured, Measured]> {
  const options = urls.map((url) => loadOptions(url, headers, scenario));
  for (const each of options) await autocannon({ ...each, duration: Math.min(2, duration) });
  const turns = urls.map(() => [] as autocannon.Result[]);
  for (let round = 0; round < sameWorkTurns; round += 1) {
    for (const side of round % 2 === 0 ? [0, 1] : [1, 0]) turns[side]!.push(await load(options[side]!, duration / sameWorkTurns));
  }
  const [folio, same] = turns.map((results) => ({
    requestsPerSecond: results.reduce((sum, result) => sum + result.requests.total, 0) / results.reduce((sum, result) => sum + result.duration, 0),
    p50: median(results.map((result) => result.latency.p50)),
    p99: median(results.map((result) => result.latency.p99)),
    requests: results.reduce((sum, result) => sum + result.requests.total, 0),
  }));
  return [folio!, same!];
}

interface Servers {
  baseline: string;
  baselineProbe: string;
  folio: string;
  folioProbe: string;
}

interface Row {
  scenario: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** To the bare route's req/s. */
  ratio: number;
  target?: string;
  met?: boolean;
  cpu: CpuFigures;
  /** The bare route's CPU per request measured with this scenario's, their batches interleaved (cpu.ts). */
  bareCpuMicros: number;
  /** The same-work baseline: its req/s, Folio's share of it, the share issue 32 asks for, its CPU. */
  sameWork?: { requestsPerSecond: number; ratio: number; target: number; met: boolean; cpu: CpuFigures };
}

/**
 * The baseline must answer what Folio answers, byte for byte, or its figure says nothing: checked
 * once per scenario that reads (a create's answer differs by its id and time).
 */
async function expectSameAnswer(folioUrl: string, sameUrl: string, request: { method?: string; headers: Record<string, string>; body?: unknown }): Promise<void> {
  const init = { method: request.method ?? 'GET', headers: { ...request.headers, 'content-type': 'application/json' }, body: request.body === undefined ? undefined : JSON.stringify(request.body) };
  const [folio, same] = await Promise.all([fetch(folioUrl, init).then((response) => response.text()), fetch(sameUrl, init).then((response) => response.text())]);
  if (folio !== same) throw new Error(`The same-work route ${sameUrl} answers otherwise than Folio:\n${same.slice(0, 600)}\n${folio.slice(0, 600)}`);
}

const percent = (ratio: number) => `${(ratio * 100).toFixed(0)}%`;

function report(rows: Row[], databaseUrl: string): void {
  const engine = databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite';
  console.log(`\nFolio benchmark: ${engine}, ${connections} connections, ${duration}s per scenario, node ${process.version}, ${os.cpus().length} cores\n`);
  console.log(['scenario'.padEnd(50), 'req/s'.padStart(9), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'ratio'.padStart(7), 'CPU µs'.padStart(8), 'bare µs'.padStart(8), 'x bare'.padStart(7), 'stmts'.padStart(6), '  target'].join(' '));
  for (const row of rows) {
    const target = row.target === undefined ? '' : `  ${row.target} ${row.met ? 'met' : 'NOT MET'}`;
    console.log(
      [
        row.scenario.padEnd(50),
        row.requestsPerSecond.toFixed(0).padStart(9),
        String(row.p50).padStart(8),
        String(row.p99).padStart(8),
        percent(row.ratio).padStart(7),
        row.cpu.cpuMicrosPerRequest.toFixed(0).padStart(8),
        row.bareCpuMicros.toFixed(0).padStart(8),
        (row.cpu.cpuMicrosPerRequest / row.bareCpuMicros).toFixed(1).padStart(7),
        row.cpu.statementsPerRequest.toFixed(1).padStart(6),
        target,
      ].join(' '),
    );
  }
  const compared = rows.filter((row) => row.sameWork !== undefined);
  if (compared.length > 0) {
    console.log('\nAgainst the same work (hand-written routes, same statements, same JSON: bench/same-work.ts)\n');
    console.log(['scenario'.padEnd(50), 'Folio'.padStart(9), 'same'.padStart(9), 'ratio'.padStart(7), 'CPU µs'.padStart(8), 'same µs'.padStart(8), 'x same'.padStart(7), 'stmts'.padStart(6), '  target'].join(' '));
    for (const row of compared) {
      const same = row.sameWork!;
      console.log(
        [
          row.scenario.padEnd(50),
          row.requestsPerSecond.toFixed(0).padStart(9),
          same.requestsPerSecond.toFixed(0).padStart(9),
          percent(same.ratio).padStart(7),
          row.cpu.cpuMicrosPerRequest.toFixed(0).padStart(8),
          same.cpu.cpuMicrosPerRequest.toFixed(0).padStart(8),
          (row.cpu.cpuMicrosPerRequest / same.cpu.cpuMicrosPerRequest).toFixed(1).padStart(7),
          same.cpu.statementsPerRequest.toFixed(1).padStart(6),
          `  >= ${percent(same.target)} ${same.met ? 'met' : 'NOT MET'}`,
        ].join(' '),
      );
    }
  }
  saveResults({ date: new Date().toISOString(), engine, connections, durationSeconds: duration, node: process.version, cores: os.cpus().length, rows });
  console.log('\nwritten to bench/results/latest.json');
}

/** Merges figures into bench/results/latest.json. */
function saveResults(figures: Record<string, unknown>): void {
  const file = path.join(root, 'bench/results/latest.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const previous = fs.existsSync(file) && figures.rows === undefined ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  fs.writeFileSync(file, `${JSON.stringify({ ...previous, ...figures }, null, 2)}\n`);
}

await main();
