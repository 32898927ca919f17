import { refuseNonEmpty } from '../archive/restore.ts';
import { isoNow } from '../core/clock.ts';
import type { Context } from '../core/context.ts';
import { AppError } from '../core/errors.ts';
import { runOperation } from '../core/operation.ts';
import type { Db } from '../db/connection.ts';
import { withSnapshot } from '../db/snapshot.ts';
import type { MediaStorage } from '../media/storage/types.ts';
import { rebuildIndex } from '../search/operations.ts';
import { catchUp, type CatchUpTotals } from './catch-up.ts';
import { compareSites, type TableComparison } from './compare.ts';
import { copyTables } from './copy.ts';
import { copyMedia, type MediaCopy } from './media.ts';
import { entryTablesOf, movedTables } from './rows.ts';
import * as store from './store.ts';

/** The site as the running server holds it: read through snapshots, never written. */
export interface MoveSource {
  db: Db;
  sqlitePath: string | undefined;
  storage: MediaStorage;
  /** How the target's record of the move names the source. */
  name: string;
}

/** Where the site goes: the target's database (migrated) and media storage, as a server on it would use them. */
export interface MoveTarget {
  ctx: Context;
  sqlitePath: string | undefined;
  /** The target keeps the source's media storage: no file is copied. */
  sameStorage: boolean;
}

export interface MoveReport {
  rows: number;
  /** Undefined when the target keeps the source's media storage. */
  media: MediaCopy | undefined;
  comparison: TableComparison[];
}

export interface CatchUpReport extends CatchUpTotals {
  media: MediaCopy | undefined;
  comparison: TableComparison[];
}

/**
 * `folio move --to` (docs/decisions/0062): copies the site from one consistent snapshot of the
 * source into an empty target while the source keeps serving, its media files too unless the target
 * keeps the same storage, rebuilds the target's search index, records the move in the target (what
 * a catch-up looks for), and compares both sides.
 */
export async function moveSite(source: MoveSource, target: MoveTarget): Promise<MoveReport> {
  const { ctx } = target;
  if ((await store.findMove(ctx.db, source.name)) !== undefined) {
    throw new AppError('CONFLICT', `This target holds a move from ${source.name} already: bring it up to date with --catch-up`);
  }
  await refuseNonEmpty(ctx.db, 'give the database of a new Folio (nothing but `folio migrate` run on it), or bring a moved site up to date with --catch-up');
  const now = isoNow(ctx.clock);
  const copied = await withSnapshot(source.db, source.sqlitePath, async (snapshot) => {
    const entryTables = await entryTablesOf(snapshot);
    const totals = await copyTables(snapshot, ctx.db, movedTables(entryTables), entryTables, now);
    const media = target.sameStorage ? undefined : await copyMedia(snapshot, source.storage, ctx.storage, { onlyMissing: false });
    return { ...totals, media };
  });
  await rebuildSearch(ctx);
  await store.recordCopy(ctx.db, source.name, now);
  return { rows: copied.rows, media: copied.media, comparison: await compare(source, target) };
}

/**
 * `folio move --to … --catch-up`: brings a target an earlier move filled to the source's state now
 * (rows added, changed and deleted, media files added), then compares both sides.
 */
export async function catchUpSite(source: MoveSource, target: MoveTarget): Promise<CatchUpReport> {
  const { ctx } = target;
  if ((await store.findMove(ctx.db, source.name)) === undefined) {
    throw new AppError('CONFLICT', `No move from ${source.name} was made into this target: run folio move --to with the same target without --catch-up first`);
  }
  const now = isoNow(ctx.clock);
  const done = await withSnapshot(source.db, source.sqlitePath, async (snapshot) => {
    const totals = await catchUp(snapshot, { db: ctx.db, sqlitePath: target.sqlitePath }, movedTables(await entryTablesOf(snapshot)), now);
    const media = target.sameStorage ? undefined : await copyMedia(snapshot, source.storage, ctx.storage, { onlyMissing: true });
    return { ...totals, media };
  });
  if (done.added + done.changed + done.deleted > 0) await rebuildSearch(ctx);
  await store.recordCatchUp(ctx.db, source.name, now);
  return { ...done, comparison: await compare(source, target) };
}

async function rebuildSearch(ctx: Context): Promise<void> {
  const rebuild = await runOperation(rebuildIndex, ctx, () => ({ stream: false }));
  await rebuild.run(() => undefined);
}

/** Both sides now, each from a snapshot of its own. */
async function compare(source: MoveSource, target: MoveTarget): Promise<TableComparison[]> {
  return withSnapshot(source.db, source.sqlitePath, (from) =>
    withSnapshot(target.ctx.db, target.sqlitePath, async (to) => compareSites(from, to, movedTables(await entryTablesOf(from)))),
  );
}
