import type { ChildProcess } from 'node:child_process';
import { createHash, randomFillSync } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import { newId } from '../src/core/ids.ts';
import { runOperation } from '../src/core/operation.ts';
import { inTransaction } from '../src/db/dialect.ts';
import { entryTables, recordTables } from '../src/archive/tables.ts';
import { newStorageKey } from '../src/media/keys.ts';
import { localStorage } from '../src/media/storage/local.ts';
import { insertMedia } from '../src/media/store.ts';
import { loadCollection } from '../src/schema/store.ts';
import { createCollection, createField } from '../src/schema/operations.ts';
import { residentMb } from './body-burst.ts';
import { cpuMs } from './media.ts';
import { insertEntries } from './bulk-entries.ts';
import { benchAdmin, withBenchContext } from './context.ts';
import { pacedLoad } from './http-load.ts';
import { ensureCompiled, folioNodeFlags, freePort, measureInTemporaryFolder, startFolio, startProcess, waitForHttp } from './process.ts';

/**
 * Issue 35's archive figures (docs/decisions/0061): a SQLite site of BENCH_ARCHIVE_ENTRIES entries
 * (default 100,000) with two revisions each and BENCH_ARCHIVE_MEDIA media files (default 2,000) of
 * 0.5 MiB of random bytes (incompressible, so the archive's MB/s is not gzip's), seeded straight into
 * the tables. Then `folio export` as users run it (the compiled CLI) while `folio serve` on the same
 * database answers a light paced load of entry and list reads; then `folio import-site` of that
 * archive into a fresh database. Each command's peak RSS is sampled from /proc every 50 ms.
 */
export interface SiteArchiveFigures {
  entries: number;
  revisions: number;
  mediaFiles: number;
  mediaMb: number;
  databaseMb: number;
  seedSeconds: number;
  archiveMb: number;
  export: CommandFigures;
  /**
   * The same export made by the server as a job (`POST /site/exports`, docs/decisions/0063), followed
   * as a client would, reading its state every 250 ms, while the same reads go on.
   */
  exportJob: ExportJobFigures;
  restore: CommandFigures;
  /** The reads answered by the server while the export ran, and in the seconds before it (the machine's own noise). */
  reads: { rate: number; unfinished: number; p50: number; p99: number; before: { seconds: number; p50: number; p99: number } };
  /** Tables (and the media folder) whose counts differ between the site and its restored copy: none when it matches. */
  differences: string[];
  /** The machine's 1-minute load average when the export began: it is shared, and the wall-clock figures move with it. */
  loadAverage: number;
}

interface ExportJobFigures {
  seconds: number;
  megabytesPerSecond: number;
  /** The server's peak RSS (VmHWM) over the whole run: reads, the CLI export beside it, and the job. */
  serverPeakRssMb: number;
  /** The longest time between two changes of the progress a client reads, while it ran. */
  longestProgressGapSeconds: number;
  reads: { unfinished: number; p50: number; p99: number };
}

interface CommandFigures {
  seconds: number;
  megabytesPerSecond: number;
  peakRssMb: number;
  /** CPU time of the command's process (all its threads: gzip runs on libuv's), the figure the machine's load moves least. */
  cpuSeconds: number;
}

const MB = 1e6;
const mediaBytes = 512 * 1024;
const revisionsPerEntry = 2;
const readRate = 20;
const readsBeforeSeconds = 10;
const targets = { megabytesPerSecond: 20, peakRssMb: 200, p99Ms: 100 };

export async function measureSiteArchive(workDir: string, entries = Number(process.env.BENCH_ARCHIVE_ENTRIES ?? 100_000), mediaFiles = Number(process.env.BENCH_ARCHIVE_MEDIA ?? 2_000)): Promise<SiteArchiveFigures> {
  ensureCompiled();
  const site = { databaseUrl: `file:${path.join(workDir, 'site.db')}`, mediaDir: path.join(workDir, 'site-media') };
  const copy = { databaseUrl: `file:${path.join(workDir, 'restored.db')}`, mediaDir: path.join(workDir, 'restored-media') };
  const archive = path.join(workDir, 'site.tar.gz');
  const started = performance.now();
  const seeded = await seedSite(site.databaseUrl, site.mediaDir, entries, mediaFiles);
  const seedSeconds = (performance.now() - started) / 1000;

  const port = await freePort();
  const server = startFolio({ PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: site.databaseUrl, MEDIA_DIR: site.mediaDir, LOG_LEVEL: 'warn', LOG_FORMAT: 'json' });
  let exported: Omit<CommandFigures, 'megabytesPerSecond'>;
  let exportJob: ExportJobFigures;
  let loadAverage: number;
  let reads: SiteArchiveFigures['reads'];
  try {
    const base = `http://127.0.0.1:${port}/_cms/api`;
    await waitForHttp(`${base}/health`);
    const urls = [`${base}/content/articles/${seeded.entryId}`, `${base}/content/articles?limit=20`];
    const paced = { rate: readRate, connections: 4, headers: { authorization: `Bearer ${seeded.token}` } };
    await pacedLoad(urls, { ...paced, seconds: 2 });
    const before = await pacedLoad(urls, { ...paced, seconds: readsBeforeSeconds });
    loadAverage = os.loadavg()[0]!;
    const exporting = runCli(['export', archive], site);
    const load = await pacedLoad(urls, { ...paced, seconds: 600, until: exporting });
    exported = await exporting;
    reads = { rate: readRate, unfinished: load.unfinished + before.unfinished, p50: load.p50, p99: load.p99, before: { seconds: readsBeforeSeconds, p50: before.p50, p99: before.p99 } };
    const job = followExportJob(base, seeded.token);
    const jobLoad = await pacedLoad(urls, { ...paced, seconds: 600, until: job });
    const followed = await job;
    exportJob = { ...followed, serverPeakRssMb: residentMb(server.pid!, 'VmHWM'), reads: { unfinished: jobLoad.unfinished, p50: jobLoad.p50, p99: jobLoad.p99 } };
  } finally {
    server.kill('SIGTERM');
  }
  const archiveMb = fs.statSync(archive).size / MB;
  const restored = await runCli(['import-site', archive], copy);
  const differences = await compareSites(site, copy);
  return {
    entries,
    revisions: entries * revisionsPerEntry,
    mediaFiles,
    mediaMb: (mediaFiles * mediaBytes) / MB,
    databaseMb: fs.statSync(path.join(workDir, 'site.db')).size / MB,
    seedSeconds,
    archiveMb,
    export: { ...exported, megabytesPerSecond: archiveMb / exported.seconds },
    exportJob,
    restore: { ...restored, megabytesPerSecond: archiveMb / restored.seconds },
    reads,
    differences,
    loadAverage,
  };
}

/** An admin, a collection of four fields, the entries and their revisions in transactions, and the media files through local storage with their rows. */
async function seedSite(databaseUrl: string, mediaDir: string, entries: number, mediaFiles: number): Promise<{ token: string; entryId: string }> {
  return withBenchContext(databaseUrl, async (ctx) => {
    const admin = await benchAdmin(ctx, `bench-archive-${Date.now()}@example.com`);
    await runOperation(createCollection, ctx, () => ({ slug: 'articles', label: 'Articles', labelSingular: 'Article' }));
    for (const [slug, type] of [['title', 'string'], ['rank', 'integer'], ['summary', 'text'], ['body', 'portableText']] as const) {
      await runOperation(createField, ctx, () => ({ collection: 'articles', slug, label: slug, type }));
    }
    const collection = (await loadCollection(ctx.db, 'articles'))!;
    const fields = (n: number) => ({ title: `Article ${n}`, rank: n % 1000, summary: `A summary of article ${n}, long enough to be a sentence or two of text.`, body: `## Article ${n}\n\nSome *body* text with a [link](https://example.com/${n}).` });
    await inTransaction(ctx.db, (trx) => insertEntries(trx, collection.tableName, entries, fields));
    await inTransaction(ctx.db, async (trx) => {
      const kysely = trx.kysely as unknown as Kysely<Record<string, Record<string, unknown>>>;
      let batch: Record<string, unknown>[] = [];
      for await (const rows of entryRows(kysely, collection.tableName)) {
        for (const row of rows) {
          for (let version = 1; version <= revisionsPerEntry; version++) {
            const n = Number(row.rank);
            batch.push({ id: newId(), collection_id: collection.id, entry_id: row._id, data: JSON.stringify({ ...fields(n), rank: n + version }), slug: row._slug, author_id: admin.id, created_at: row._created_at });
          }
        }
        await kysely.insertInto('revisions').values(batch).execute();
        batch = [];
      }
    });
    await seedMedia(ctx.db, mediaDir, mediaFiles, admin.id);
    await sql`analyze`.execute(ctx.db.kysely);
    const first = await (ctx.db.kysely as unknown as Kysely<Record<string, { _id: string }>>).selectFrom(collection.tableName).select('_id').limit(1).executeTakeFirstOrThrow();
    return { token: admin.token, entryId: first._id };
  });
}

/** The entries' id, slug, rank and date, 500 at a time in id order. */
async function* entryRows(kysely: Kysely<Record<string, Record<string, unknown>>>, table: string): AsyncGenerator<Record<string, unknown>[]> {
  let after = '';
  for (;;) {
    const rows = await kysely.selectFrom(table).select(['_id', '_slug', 'rank', '_created_at']).where('_id', '>', after).orderBy('_id').limit(500).execute();
    if (rows.length === 0) return;
    yield rows;
    after = String(rows.at(-1)!._id);
  }
}

/** Files of random bytes written through local storage and registered as an upload registers them (src/media/store.ts). */
async function seedMedia(db: Parameters<typeof insertMedia>[0], mediaDir: string, count: number, createdBy: string): Promise<void> {
  const storage = localStorage(mediaDir);
  const bytes = Buffer.alloc(mediaBytes);
  for (let n = 0; n < count; n++) {
    randomFillSync(bytes);
    const now = new Date();
    const filename = `file-${n}.bin`;
    const key = newStorageKey(filename, now);
    await storage.write(key, Readable.from([bytes]), { contentType: 'application/octet-stream' });
    const at = now.toISOString();
    const row = { id: newId(), storage_key: key, filename, mime_type: 'application/octet-stream', size: mediaBytes, width: null, height: null, alt: null, caption: null, title: null, content_hash: createHash('sha256').update(bytes).digest('hex'), created_by: createdBy, created_at: at, updated_at: at };
    if (!(await insertMedia(db, row))) throw new Error(`media key ${key} taken`);
  }
}

const jobPollMs = 250;

/** Queues an export as a job and reads its state until it has succeeded: its time, its archive's MB/s, the longest wait for new progress. */
async function followExportJob(base: string, token: string): Promise<Omit<ExportJobFigures, 'serverPeakRssMb' | 'reads'>> {
  const headers = { authorization: `Bearer ${token}` };
  const started = performance.now();
  const queued = await fetch(`${base}/site/exports`, { method: 'POST', headers });
  if (queued.status !== 202) throw new Error(`POST /site/exports answered ${queued.status}: ${await queued.text()}`);
  const location = new URL(queued.headers.get('location')!, base).toString();
  let seen = '';
  let changedAt = performance.now();
  let longestGapMs = 0;
  for (;;) {
    const { data } = (await (await fetch(location, { headers })).json()) as { data: { item: { state: string; progress: unknown; lastError: string | null; archive: { size: number } | null } } };
    const { item } = data;
    const now = performance.now();
    if (item.state === 'succeeded') return { seconds: (now - started) / 1000, megabytesPerSecond: item.archive!.size / MB / ((now - started) / 1000), longestProgressGapSeconds: longestGapMs / 1000 };
    if (item.state === 'failed') throw new Error(`The export job failed: ${item.lastError}`);
    const progress = JSON.stringify(item.progress);
    if (item.state === 'running' && progress !== seen) {
      if (seen !== '') longestGapMs = Math.max(longestGapMs, now - changedAt);
      seen = progress;
      changedAt = now;
    }
    await new Promise((resolve) => setTimeout(resolve, jobPollMs));
  }
}

/** `folio COMMAND…` as users run it, on `site`; its seconds, and the peak of its VmRSS and its CPU time read every 50 ms (the last read before it exits). */
async function runCli(args: string[], site: { databaseUrl: string; mediaDir: string }): Promise<Omit<CommandFigures, 'megabytesPerSecond'>> {
  const started = performance.now();
  const child: ChildProcess = startProcess([...folioNodeFlags(), 'bin/folio.mjs', ...args], { DATABASE_URL: site.databaseUrl, MEDIA_DIR: site.mediaDir, LOG_LEVEL: 'warn' });
  let peakRssMb = 0;
  let cpuMsUsed = 0;
  const sample = () => {
    try {
      const rss = residentMb(child.pid!, 'VmRSS');
      // An exited process not yet reaped has no VmRSS any more (NaN): its last sample stands.
      if (Number.isNaN(rss)) return;
      peakRssMb = Math.max(peakRssMb, rss);
      cpuMsUsed = cpuMs(child.pid!);
    } catch {
      // exited and reaped between two samples
    }
  };
  const timer = setInterval(sample, 50);
  try {
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`folio ${args.join(' ')} exited with ${code}`);
  } finally {
    clearInterval(timer);
  }
  return { seconds: (performance.now() - started) / 1000, peakRssMb, cpuSeconds: cpuMsUsed / 1000 };
}

/** Row counts of every archived table, and media files on disk, compared; the differences named. */
async function compareSites(site: { databaseUrl: string; mediaDir: string }, copy: { databaseUrl: string; mediaDir: string }): Promise<string[]> {
  const [before, after] = [await countRows(site.databaseUrl), await countRows(copy.databaseUrl)];
  const differences = Object.entries(before).filter(([table, count]) => after[table] !== count).map(([table, count]) => `${table}: ${count} in the site, ${after[table] ?? 'none'} restored`);
  const [filesBefore, filesAfter] = [countFiles(site.mediaDir), countFiles(copy.mediaDir)];
  if (filesBefore !== filesAfter) differences.push(`media files: ${filesBefore} in the site, ${filesAfter} restored`);
  return differences;
}

async function countRows(databaseUrl: string): Promise<Record<string, number>> {
  return withBenchContext(databaseUrl, async (ctx) => {
    const kysely = ctx.db.kysely as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const collections = await ctx.db.kysely.selectFrom('collections').select('table_name').execute();
    const tables = recordTables.flatMap((table) => (table === entryTables ? collections.map((row) => row.table_name) : [table.name]));
    const counts: Record<string, number> = {};
    for (const table of tables) counts[table] = Number((await kysely.selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
    return counts;
  });
}

/** Media files under `dir`: storage's temporary folder and the archives of export jobs left out. */
function countFiles(dir: string): number {
  const notMedia = [path.join(dir, '.partial'), path.join(dir, 'exports')];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile() && !notMedia.some((folder) => entry.parentPath.startsWith(folder))).length;
}

export function printSiteArchive(figures: SiteArchiveFigures): void {
  const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
  const command = (name: string, run: CommandFigures) =>
    `  ${name.padEnd(18)} ${run.seconds.toFixed(1).padStart(6)} s ${run.megabytesPerSecond.toFixed(1).padStart(7)} MB/s (>= ${targets.megabytesPerSecond}: ${verdict(run.megabytesPerSecond >= targets.megabytesPerSecond)}), ` +
    `peak RSS ${run.peakRssMb.toFixed(0)} MB (< ${targets.peakRssMb}: ${verdict(run.peakRssMb < targets.peakRssMb)}); CPU ${run.cpuSeconds.toFixed(1)} s, ${(figures.archiveMb / run.cpuSeconds).toFixed(0)} MB per CPU-second`;
  console.log(
    `\nSite archive (SQLite, local media, the compiled CLI): ${figures.entries} entries with ${figures.revisions} revisions, ${figures.mediaFiles} media files of random bytes ` +
      `(${figures.mediaMb.toFixed(0)} MB), a ${figures.databaseMb.toFixed(0)} MB database seeded in ${figures.seedSeconds.toFixed(0)} s; archive ${figures.archiveMb.toFixed(0)} MB; ` +
      `load average ${figures.loadAverage.toFixed(1)} on ${os.cpus().length} cores`,
  );
  console.log(command('folio export', figures.export));
  const job = figures.exportJob;
  console.log(
    `  ${'export as a job'.padEnd(18)} ${job.seconds.toFixed(1).padStart(6)} s ${job.megabytesPerSecond.toFixed(1).padStart(7)} MB/s (>= ${targets.megabytesPerSecond}: ${verdict(job.megabytesPerSecond >= targets.megabytesPerSecond)}), ` +
      `server peak RSS ${job.serverPeakRssMb.toFixed(0)} MB (< ${targets.peakRssMb}: ${verdict(job.serverPeakRssMb < targets.peakRssMb)}); progress new at least every ${job.longestProgressGapSeconds.toFixed(1)} s; ` +
      `reads meanwhile: ${job.reads.unfinished} unanswered, p50 ${job.reads.p50} ms, p99 ${job.reads.p99} ms (< ${targets.p99Ms}: ${verdict(job.reads.p99 < targets.p99Ms && job.reads.unfinished === 0)})`,
  );
  console.log(command('folio import-site', figures.restore));
  const { reads } = figures;
  console.log(
    `  reads during the export (GET entry and list, ${reads.rate} req/s paced): ${reads.unfinished} unanswered, p50 ${reads.p50} ms, ` +
      `p99 ${reads.p99} ms (< ${targets.p99Ms}: ${verdict(reads.p99 < targets.p99Ms && reads.unfinished === 0)}); the ${reads.before.seconds} s before it: p50 ${reads.before.p50} ms, p99 ${reads.before.p99} ms`,
  );
  console.log(`  restored site: ${figures.differences.length === 0 ? 'the same row counts in every table, the same number of media files' : `DIFFERS: ${figures.differences.join('; ')}`}`);
}

/** BENCH_ONLY=site-archive, or part of the full run. */
export function benchSiteArchive(): Promise<SiteArchiveFigures> {
  return measureInTemporaryFolder('site-archive', (workDir) => measureSiteArchive(workDir), printSiteArchive);
}
