import autocannon from 'autocannon';
import { pacedLoad } from './http-load.ts';
import pino from 'pino';
import { configuredBaseUrl, loadConfig } from '../src/config.ts';
import { systemClock } from '../src/core/clock.ts';
import { systemPrincipal } from '../src/core/context.ts';
import { newId } from '../src/core/ids.ts';
import { runOperation } from '../src/core/operation.ts';
import { openDatabase, type Db } from '../src/db/connection.ts';
import { localStorage } from '../src/media/storage/local.ts';
import { createCollection, createField } from '../src/schema/operations.ts';
import { seededRandom as random } from '../test/support/random.ts';
import { EntryListeners } from '../src/content/listeners.ts';

/**
 * Issue 11's search figures: a collection with `search` filled with published entries (a title and
 * a body of about 300 words of Portable Text), written in bulk as an import would and then indexed by
 * `POST /search/rebuild`, timed; then `GET /search` for a two-word query at limit 20 and
 * `GET /search/suggest` under load, at 10,000 entries and again at 100,000 (BENCH_SEARCH_SIZES).
 * Words come from a made-up vocabulary with a skewed (Zipf-like) frequency, so a query's words are
 * as common as a site's middling words are; the report says how many entries hold both.
 */
export interface SearchFigures {
  entries: number;
  rebuildSeconds: number;
  /** Entries holding both words of the query. */
  matches: number;
  /** Under BENCH_CONNECTIONS connections: throughput, and latency that is mostly queueing. The one query is answered from memory between writes (SQLite). */
  search: Load;
  suggest: Load;
  /** A different query on every request (pairs of middling words): no answer is asked twice between writes, so none comes from memory. */
  searchVaried: Load;
  /**
   * Offered at the target's rate (2,000 req/s, BENCH_SEARCH_RATE) over the same connections: the
   * latency a site serving that many searches sees, which at full load is mostly the queue of the
   * other connections. The one query again, and a different query each time.
   */
  searchAtRate: Load;
  searchVariedAtRate: Load;
  /** One connection: the latency of a request that waits for no other. */
  searchAlone: Load;
  suggestAlone: Load;
}

interface Load {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  timeouts: number;
}

export interface SearchBenchOptions {
  databaseUrl: string;
  folioUrl: string;
  baselineUrl: string;
  token: string;
  connections: number;
  duration: number;
}

const sizes = (process.env.BENCH_SEARCH_SIZES ?? '10000,100000').split(',').map(Number);
const vocabularySize = 5_000;
const syllables = ['ka', 'lo', 'mi', 'ren', 'tus', 'va', 'den', 'sor', 'pel', 'ni', 'qua', 'bri', 'to', 'gal', 'fen', 'ru', 'shi', 'mar', 'lin', 'do'];

/** Word `n` of the vocabulary: two or three syllables, all distinct. */
function vocabularyWord(n: number): string {
  const a = syllables[n % 20]!;
  const b = syllables[Math.floor(n / 20) % 20]!;
  const c = n >= 400 ? syllables[Math.floor(n / 400) % 20]! : '';
  return `${a}${b}${c}`;
}

export const vocabulary = Array.from({ length: vocabularySize }, (_, n) => vocabularyWord(n));

/** The two query words: middling ones (each in roughly one entry in ten). */
const queryWords = [vocabulary[480]!, vocabulary[650]!];
const suggestPrefix = vocabulary[520]!.slice(0, 4);

/** `words` words of the vocabulary, drawn with its skewed frequency. */
export function paragraph(next: () => number, words: number): string {
  return Array.from({ length: words }, () => vocabulary[Math.floor(vocabularySize * next() ** 3)]!).join(' ');
}

function portableText(paragraphs: string[]): string {
  return JSON.stringify(
    paragraphs.map((text, index) => ({ _type: 'block', _key: `b${index}`, style: 'normal', markDefs: [], children: [{ _type: 'span', _key: `s${index}`, text, marks: [] }] })),
  );
}

/** Adds published entries until the collection holds `total`; returns how many hold both query words. */
export async function seedEntries(db: Db, table: string, from: number, total: number, next: () => number): Promise<number> {
  let matches = 0;
  const now = new Date().toISOString();
  for (let start = from; start < total; start += 500) {
    const rows = Array.from({ length: Math.min(500, total - start) }, (_, offset) => {
      const id = newId();
      const title = paragraph(next, 4 + Math.floor(next() * 3));
      const body = [paragraph(next, 100), paragraph(next, 100), paragraph(next, 100)];
      const words = new Set(`${title} ${body.join(' ')}`.split(' '));
      if (queryWords.every((word) => words.has(word))) matches += 1;
      return {
        _id: id, _slug: `entry-${start + offset}`, _locale: 'en', _group: id, _status: 'published', _version: 1, _live: null, _author_id: null,
        _created_at: now, _updated_at: now, _published_at: now, _scheduled_at: null, _deleted_at: null,
        title: title[0]!.toUpperCase() + title.slice(1), body: portableText(body),
      };
    });
    await db.kysely.transaction().execute((trx) => trx.insertInto(table as never).values(rows as never).execute());
  }
  return matches;
}

const targetRate = Number(process.env.BENCH_SEARCH_RATE ?? 2000);

/** `urls` offered in turn at the target's rate over the bench's connections (http-load.ts pacedLoad), after a short warm-up. */
async function loadAtRate(urls: readonly string[], token: string, options: Pick<SearchBenchOptions, 'connections' | 'duration'>): Promise<Load> {
  const paced = { rate: targetRate, connections: options.connections, headers: { authorization: `Bearer ${token}` } };
  await pacedLoad(urls, { ...paced, seconds: Math.min(2, options.duration) });
  const { requestsPerSecond, p50, p99, unfinished } = await pacedLoad(urls, { ...paced, seconds: options.duration });
  return { requestsPerSecond, p50, p99, timeouts: unfinished };
}

/** `paths`, when given, are requested in turn instead of the URL's own path. */
async function load(url: string, token: string, options: Pick<SearchBenchOptions, 'connections' | 'duration'>, paths?: readonly string[]): Promise<Load> {
  let n = 0;
  const requests = paths && [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: paths[(n += 1) % paths.length] }) }];
  const settings = { url, headers: { authorization: `Bearer ${token}` }, connections: options.connections, requests };
  await autocannon({ ...settings, duration: Math.min(2, options.duration) });
  const result = await autocannon({ ...settings, duration: options.duration });
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} non-2xx responses`);
  // On a shared machine a request may pass autocannon's 10 s timeout: counted and shown, not fatal.
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, timeouts: result.timeouts };
}

export async function measureSearch(options: SearchBenchOptions): Promise<{ baseline: Load; baselineAtRate: Load; sizes: SearchFigures[] }> {
  const config = loadConfig({ DATABASE_URL: options.databaseUrl, LOG_LEVEL: 'silent' });
  const db = await openDatabase(config.database);
  const figures: SearchFigures[] = [];
  try {
    const ctx = { db, clock: systemClock, config, log: pino({ level: 'silent' }), principal: systemPrincipal, entryListeners: EntryListeners.of(), storage: localStorage(config.mediaDir), baseUrl: configuredBaseUrl(config) };
    const { item } = await runOperation(createCollection, ctx, () => ({ slug: 'articles', label: 'Articles', supports: ['search' as const] }));
    await runOperation(createField, ctx, () => ({ collection: 'articles', slug: 'title', label: 'Title', type: 'string' as const, searchable: true }));
    await runOperation(createField, ctx, () => ({ collection: 'articles', slug: 'body', label: 'Body', type: 'portableText' as const, searchable: true }));
    const { table_name: table } = await db.kysely.selectFrom('collections').select('table_name').where('id', '=', item.id).executeTakeFirstOrThrow();
    const baseline = await load(options.baselineUrl, options.token, options);
    const baselineAtRate = await loadAtRate([options.baselineUrl], options.token, options);
    const next = random(2026);
    let seeded = 0;
    let matches = 0;
    for (const size of sizes) {
      matches += await seedEntries(db, table, seeded, size, next);
      seeded = size;
      const started = performance.now();
      const rebuild = await fetch(`${options.folioUrl}/_cms/api/search/rebuild`, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ collections: ['articles'] }),
      });
      if (!rebuild.ok) throw new Error(`rebuild answered ${rebuild.status}: ${await rebuild.text()}`);
      const rebuildSeconds = (performance.now() - started) / 1000;
      const searchUrl = `${options.folioUrl}/_cms/api/search?q=${queryWords.join('+')}&limit=20`;
      const suggestUrl = `${options.folioUrl}/_cms/api/search/suggest?q=${suggestPrefix}`;
      const alone = { connections: 1, duration: Math.max(2, options.duration / 2) };
      // Pairs of words as common as the query's (around the 480th and 650th), each pair once: more than a run can ask.
      const variedPaths = Array.from({ length: 40_000 }, (_, n) => `/_cms/api/search?q=${vocabulary[400 + (n % 200)]}+${vocabulary[600 + Math.floor(n / 200)]}&limit=20`);
      figures.push({
        entries: size,
        rebuildSeconds,
        matches,
        search: await load(searchUrl, options.token, options),
        searchVaried: await load(searchUrl, options.token, options, variedPaths),
        searchAtRate: await loadAtRate([searchUrl], options.token, options),
        // Other pairs than the run above asked, so none of these was asked before.
        searchVariedAtRate: await loadAtRate(variedPaths.slice(20_000).map((path) => `${options.folioUrl}${path}`), options.token, options),
        suggest: await load(suggestUrl, options.token, options),
        searchAlone: await load(searchUrl, options.token, alone),
        suggestAlone: await load(suggestUrl, options.token, alone),
      });
    }
    return { baseline, baselineAtRate, sizes: figures };
  } finally {
    await db.close();
  }
}

export function printSearch({ baseline, baselineAtRate, sizes: figures }: Awaited<ReturnType<typeof measureSearch>>, engine: string, connections: number): void {
  console.log(`\nSearch on ${engine} (query "${queryWords.join(' ')}", limit 20; suggest "${suggestPrefix}"); baseline ${baseline.requestsPerSecond.toFixed(0)} req/s at ${connections} connections; at ${targetRate} req/s offered p50 ${baselineAtRate.p50} ms, p99 ${baselineAtRate.p99} ms`);
  for (const { entries, rebuildSeconds, matches, search, searchVaried, searchAtRate, searchVariedAtRate, suggest, searchAlone, suggestAlone } of figures) {
    const ratio = ((search.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(0);
    console.log(`  ${entries} entries (${matches} hold both words): rebuild ${rebuildSeconds.toFixed(1)} s`);
    const timeouts = (load: Load) => (load.timeouts > 0 ? ` (${load.timeouts} timed out)` : '');
    console.log(`    search  at ${connections}, one query asked again: ${search.requestsPerSecond.toFixed(0)} req/s (${ratio}% of baseline), p50 ${search.p50} ms, p99 ${search.p99} ms${timeouts(search)}; alone: p50 ${searchAlone.p50} ms, p99 ${searchAlone.p99} ms`);
    console.log(`    search  at ${connections}, every query different: ${searchVaried.requestsPerSecond.toFixed(0)} req/s, p50 ${searchVaried.p50} ms, p99 ${searchVaried.p99} ms${timeouts(searchVaried)}`);
    const unanswered = (load: Load) => (load.timeouts > 0 ? ` (${load.timeouts} not answered in twice the run's time)` : '');
    const atRate = (name: string, load: Load) => `    search  at ${targetRate} req/s offered, ${name}: ${load.requestsPerSecond.toFixed(0)} req/s served, p50 ${load.p50} ms, p99 ${load.p99} ms${unanswered(load)}`;
    console.log(atRate('one query asked again', searchAtRate));
    console.log(atRate('every query different', searchVariedAtRate));
    console.log(`    suggest at ${connections}: ${suggest.requestsPerSecond.toFixed(0)} req/s, p50 ${suggest.p50} ms, p99 ${suggest.p99} ms${timeouts(suggest)}; alone: p50 ${suggestAlone.p50} ms, p99 ${suggestAlone.p99} ms`);
  }
}
