import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { runOperation } from '../src/core/operation.ts';
import { newId } from '../src/core/ids.ts';
import { entryTableName } from '../src/db/entry-tables.ts';
import { newStorageKey } from '../src/media/keys.ts';
import { localStorage } from '../src/media/storage/local.ts';
import { createCollection, createField } from '../src/schema/operations.ts';
import { insertEntries } from './bulk-entries.ts';
import { benchAdmin, newPostgresSchema, withBenchContext } from './context.ts';

/**
 * `folio move` (issue 35, docs/decisions/0062): a SQLite site of `entries` entries with two
 * revisions each and `mediaFiles` files moved into PostgreSQL (BENCH_DATABASE_URL, a schema of its
 * own; a SQLite file without it), the CLI timed as a child process by /usr/bin/time (wall and CPU
 * seconds, peak RSS); then a small change (entries added, changed, deleted) and the catch-up timed
 * the same way. The figure: 100,000 entries and 2,000 media files in under 2 minutes, 0 differences.
 */
export interface MoveFigures {
  target: 'postgres' | 'sqlite';
  entries: number;
  revisions: number;
  mediaFiles: number;
  mediaMegabytes: number;
  move: Timed;
  catchUpChanges: number;
  catchUp: Timed;
  differencesAfterCatchUp: number;
}

interface Timed {
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
}

type AnyTables = Kysely<Record<string, Record<string, unknown>>>;

export async function measureMove(workDir: string, entries: number, mediaFiles: number, mediaBytes: number, postgresUrl: string | undefined): Promise<MoveFigures> {
  const sourceUrl = `file:${path.join(workDir, 'move-source.db')}`;
  const env = { DATABASE_URL: sourceUrl, MEDIA_DIR: path.join(workDir, 'move-media'), LOG_LEVEL: 'warn' };
  const table = await withBenchContext(sourceUrl, async (ctx) => {
    const admin = await benchAdmin(ctx, 'bench-move@example.com');
    const { item: collection } = await runOperation(createCollection, ctx, () => ({ slug: 'moved', label: 'Moved entries' }));
    await runOperation(createField, ctx, () => ({ collection: 'moved', slug: 'title', label: 'Title', type: 'string' as const }));
    await runOperation(createField, ctx, () => ({ collection: 'moved', slug: 'rank', label: 'Rank', type: 'integer' as const }));
    await runOperation(createField, ctx, () => ({ collection: 'moved', slug: 'price', label: 'Price', type: 'number' as const }));
    const name = entryTableName(collection.id);
    await insertEntries(ctx.db, name, entries, (n) => ({ _slug: `moved-${n}`, title: `Moved entry ${n}`, rank: n, price: n / 8 }));
    const db = ctx.db.kysely as unknown as AnyTables;
    const ids = (await db.selectFrom(name).select('_id').execute()).map((row) => String(row._id));
    const now = new Date().toISOString();
    for (let start = 0; start < ids.length; start += 250) {
      const rows = ids.slice(start, start + 250).flatMap((id, index) =>
        [1, 2].map((version) => ({ id: newId(), collection_id: collection.id, entry_id: id, data: JSON.stringify({ title: `Moved entry ${start + index} v${version}`, rank: version }), slug: `moved-${start + index}`, author_id: admin.id, created_at: now })),
      );
      await db.insertInto('revisions').values(rows).execute();
    }
    const storage = localStorage(env.MEDIA_DIR);
    const bytes = Buffer.alloc(mediaBytes, 7);
    for (let n = 0; n < mediaFiles; n++) {
      const key = newStorageKey(`file-${n}.bin`, new Date());
      bytes.writeUInt32BE(n, 0);
      await storage.write(key, Readable.from([bytes]), { contentType: 'application/octet-stream' });
      await db.insertInto('media').values({ id: newId(), storage_key: key, filename: `file-${n}.bin`, mime_type: 'application/octet-stream', size: mediaBytes, width: null, height: null, alt: null, caption: null, title: null, content_hash: null, created_by: admin.id, created_at: now, updated_at: now }).execute();
    }
    return name;
  });

  const targetUrl = postgresUrl === undefined ? `file:${path.join(workDir, 'move-target.db')}` : await newPostgresSchema(postgresUrl, `bench_move_${Date.now()}`);
  const args = ['move', '--to', targetUrl, '--media-dir', path.join(workDir, 'move-target-media')];
  const move = timedCli(args, env);

  // A small change while the old server would still serve: 20 entries added, 20 changed, 10 deleted.
  await withBenchContext(sourceUrl, async (ctx) => {
    const db = ctx.db.kysely as unknown as AnyTables;
    await insertEntries(ctx.db, table, 20, (n) => ({ _slug: `added-${n}`, title: `Added ${n}`, rank: n, price: 1.5 }));
    const ids = (await db.selectFrom(table).select('_id').orderBy('_id').limit(30).execute()).map((row) => String(row._id));
    await db.updateTable(table).set({ title: 'Changed since the move' }).where('_id', 'in', ids.slice(0, 20)).execute();
    await db.deleteFrom(table).where('_id', 'in', ids.slice(20, 30)).execute();
  });
  const catchUp = timedCli([...args, '--catch-up'], env);
  return {
    target: postgresUrl === undefined ? 'sqlite' : 'postgres',
    entries,
    revisions: entries * 2,
    mediaFiles,
    mediaMegabytes: Math.round((mediaFiles * mediaBytes) / 1e6),
    move: move.timed,
    catchUpChanges: 50,
    catchUp: catchUp.timed,
    differencesAfterCatchUp: Number(/\n(\d+) differences in/.exec(catchUp.stdout)?.[1] ?? NaN),
  };
}

/** Runs the CLI under /usr/bin/time: its wall and CPU seconds and peak RSS, and what it printed. */
function timedCli(args: string[], env: Record<string, string>): { timed: Timed; stdout: string } {
  const report = path.join(fs.mkdtempSync(path.join(path.dirname(env.MEDIA_DIR!), 'time-')), 'time.txt');
  const stdout = execFileSync('/usr/bin/time', ['-f', '%e %U %S %M', '-o', report, process.execPath, 'bin/folio.mjs', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const [wall, user, system, rssKb] = fs.readFileSync(report, 'utf8').trim().split(/\s+/).map(Number);
  return { timed: { seconds: wall!, cpuSeconds: Math.round((user! + system!) * 100) / 100, peakRssMb: Math.round(rssKb! / 1024) }, stdout };
}

export function printMove(figures: MoveFigures): void {
  const line = (what: string, timed: Timed) => `  ${what.padEnd(34)} ${timed.seconds.toFixed(1).padStart(7)} s wall  ${timed.cpuSeconds.toFixed(1).padStart(7)} s CPU  ${String(timed.peakRssMb).padStart(5)} MB peak RSS`;
  console.log(`\nMove to ${figures.target}: ${figures.entries} entries, ${figures.revisions} revisions, ${figures.mediaFiles} media files (${figures.mediaMegabytes} MB)`);
  console.log(line('folio move (copy + comparison)', figures.move));
  console.log(line(`catch-up of ${figures.catchUpChanges} changed entries`, figures.catchUp));
  console.log(`  differences after the catch-up: ${figures.differencesAfterCatchUp}`);
}
