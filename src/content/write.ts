import { creditsColumn } from '../bylines/credits.ts';
import { isoNow } from '../core/clock.ts';
import { deleteEntryTerms } from '../taxonomies/store.ts';
import { AppError } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import type { AuthorizedContext } from '../core/operation.ts';
import type { Transaction } from '../db/dialect.ts';
import { deleteEntryRevisions, insertRevision } from '../revisions/store.ts';
import type { LoadedCollection } from '../schema/store.ts';
import { seoColumn, seoSnapshot, type StoredSeo } from '../seo/values.ts';
import type { EntryChange, EntryUpdateKind } from './changes.ts';
import { columnData, isLive, toColumns } from './entries.ts';
import { sharedValues } from './saving.ts';
import { clearSchedule, setSchedule } from './schedule-store.ts';
import * as store from './store.ts';

/**
 * The one way an entry changes. Every write of an entry row goes through `writeEntry`, in the
 * caller's transaction: it writes the row, keeps what belongs to the row in step (its schedule and
 * revisions), then hands a typed change event to the one list of listeners fixed at start
 * (`ctx.entryListeners`, content/listeners.ts: the search index, the media usage, the plugins'
 * hooks, then any a test adds). A listener that throws rolls the whole write back.
 *
 * Revisions are written here rather than by a listener: they are the entry's own history (deleted
 * with it), every process that writes entries (server, scheduler, CLI, importer) must keep them
 * whatever listeners it registered, and only the writer knows whether a write is a save.
 */
export type EntryWrite = { row: store.EntryRow } & (
  | {
      kind: 'created';
      revision: true;
      /** Who asked for the new entry's schedule, when not the acting user (an import acts for whoever started it). */
      scheduledBy?: string | null;
    }
  | { kind: 'deleted' }
  | {
      kind: EntryUpdateKind;
      /** Columns to set on the locked `row`; `_updated_at` is set here. */
      changes: Record<string, unknown>;
      /** Write only if no other save came first (a `_rev`); otherwise 409. */
      expectedVersion?: number;
      /** Saves and publications are kept as revisions (decisions/0006). */
      revision?: boolean;
      sharedFrom?: string;
    }
);

export async function writeEntry(ctx: AuthorizedContext, tx: Transaction, collection: LoadedCollection, write: EntryWrite): Promise<store.EntryRow> {
  const { tableName: table } = collection;
  let entry = write.row;
  let change: EntryChange;
  const event = { collection, entryId: entry._id, locale: entry._locale, actor: ctx.actor };
  if (write.kind === 'created') {
    await store.insertEntry(tx, table, entry);
    if (entry._scheduled_at !== null) {
      await setSchedule(tx, entry._id, collection.id, entry._scheduled_at, { now: isoNow(ctx.clock), by: write.scheduledBy ?? ctx.actor?.userId ?? null });
    }
    change = { kind: 'created', ...event, entry };
  } else if (write.kind === 'deleted') {
    await store.deleteEntry(tx, table, entry._id);
    await deleteEntryRevisions(tx, entry._id);
    await clearSchedule(tx, entry._id);
    await deleteEntryTerms(tx, entry._id);
    change = { kind: 'deleted', ...event, entry };
  } else {
    // Moving to the trash is not an edit: `updatedAt` keeps saying when the entry was last changed.
    const changes = write.kind === 'trashed' ? write.changes : { ...write.changes, _updated_at: isoNow(ctx.clock) };
    const written = await store.updateEntry(tx, table, entry._id, changes, write.expectedVersion);
    if (!written) throw staleRev();
    entry = written;
    if (Object.hasOwn(changes, '_scheduled_at')) {
      if (entry._scheduled_at === null) await clearSchedule(tx, entry._id);
      else await setSchedule(tx, entry._id, collection.id, entry._scheduled_at, { now: isoNow(ctx.clock), by: ctx.actor?.userId ?? null });
    }
    change = { kind: write.kind, ...event, entry, previousStatus: write.row._status, previousSlug: write.row._slug };
    if (write.sharedFrom !== undefined) change.sharedFrom = write.sharedFrom;
  }
  if ('revision' in write && write.revision && collection.supports.includes('revisions')) {
    await insertRevision(tx, {
      id: newId(),
      collection_id: collection.id,
      entry_id: entry._id,
      data: JSON.stringify(versionSnapshot(collection, entry)),
      slug: entry._slug,
      author_id: ctx.actor?.userId ?? null,
      created_at: entry._updated_at,
    });
  }
  await ctx.entryListeners.tell(change, tx, ctx);
  return entry;
}

export function staleRev(): AppError {
  return new AppError('CONFLICT', 'The entry changed since this _rev was read; read it again and retry', { reason: 'stale_rev' });
}

/** A new entry's row (create, duplicate): version 1, by the acting user, its own translation group unless it joins one. */
export function newEntryRow(
  ctx: AuthorizedContext,
  collection: LoadedCollection,
  entry: { slug: string; locale: string; group?: string; published: boolean; values: Record<string, unknown> },
): store.EntryRow {
  const id = newId();
  const now = isoNow(ctx.clock);
  return {
    _id: id,
    _slug: entry.slug,
    _locale: entry.locale,
    _group: entry.group ?? id,
    _status: entry.published ? 'published' : 'draft',
    _version: 1,
    _live: null,
    _author_id: ctx.actor?.userId ?? null,
    _bylines: null,
    _seo: null,
    _created_at: now,
    _updated_at: now,
    _published_at: entry.published ? now : null,
    _scheduled_at: null,
    _deleted_at: null,
    ...toColumns(collection.fields, entry.values),
  };
}

/**
 * Saves validated values over a locked entry: the end of every save (update, revision restore). On
 * a live entry of a collection with drafts the values are staged; `status` then publishes or
 * unpublishes in the same write; shared values go on to the rest of the translation group.
 */
export async function saveValues(
  ctx: AuthorizedContext,
  tx: Transaction,
  collection: LoadedCollection,
  row: store.EntryRow,
  values: Record<string, unknown>,
  options: { slug?: string; status?: 'draft' | 'published'; bylines?: readonly string[]; seo?: StoredSeo; expectedVersion?: number } = {},
): Promise<store.EntryRow> {
  const { status } = options;
  const changes: Record<string, unknown> = toColumns(collection.fields, values);
  if (options.slug !== undefined) changes._slug = options.slug;
  if (options.bylines !== undefined) changes._bylines = creditsColumn(options.bylines);
  if (options.seo !== undefined) changes._seo = seoColumn(options.seo);
  if (status !== 'published') Object.assign(changes, draftChanges(collection, row));
  Object.assign(changes, statusChanges(status, isoNow(ctx.clock)));
  const kind: EntryUpdateKind =
    status === 'published' ? 'published' : status === 'draft' && isLive(row) ? 'unpublished' : status === undefined && stagesDraft(collection, row) ? 'draftStaged' : 'updated';
  const saved = await writeEntry(ctx, tx, collection, { kind, row, changes, expectedVersion: options.expectedVersion, revision: true });
  await shareWithGroup(ctx, tx, collection, row, values);
  return saved;
}

/** `status` on update: `published` saves then publishes, `draft` saves then unpublishes (DECISIONS §3). */
export function statusChanges(status: 'draft' | 'published' | undefined, now: string): Record<string, unknown> {
  if (status === 'published') return { _status: 'published', _published_at: now, _live: null, _scheduled_at: null };
  if (status === 'draft') return { _status: 'draft', _published_at: null, _live: null, _scheduled_at: null };
  return {};
}

/**
 * Makes the current draft the live version, with a revision of what went live: publish and the
 * scheduler (which shows the entry to no one, so it gets the row, not the entry with its media).
 */
export async function publishRow(ctx: AuthorizedContext, db: Transaction, collection: LoadedCollection, row: store.EntryRow): Promise<store.EntryRow> {
  return writeEntry(ctx, db, collection, { kind: 'published', row, changes: statusChanges('published', isoNow(ctx.clock)), revision: true });
}

/** True when a save over this entry stages a draft: it is live, on a collection with drafts. */
function stagesDraft(collection: LoadedCollection, row: store.EntryRow): boolean {
  return collection.supports.includes('drafts') && isLive(row);
}

/**
 * What a save over this entry does to its live version: a staged save keeps the live values aside
 * once (they stay what readers see until publish); on a collection without drafts (perhaps switched
 * off since), the save is live at once.
 */
function draftChanges(collection: LoadedCollection, row: store.EntryRow): { _live?: string | null } {
  if (!stagesDraft(collection, row)) return row._live === null ? {} : { _live: null };
  return row._live === null ? { _live: JSON.stringify(versionSnapshot(collection, row)) } : {};
}

/** A version as a revision or a staged draft's live copy keeps it: its field values and its SEO values. */
function versionSnapshot(collection: LoadedCollection, row: store.EntryRow): Record<string, unknown> {
  return { ...columnData(collection.fields, row), ...seoSnapshot(row._seo) };
}

/**
 * Writes shared values to the rest of the translation group. Each member is saved as its own edit
 * would be (a live member of a collection with drafts stages a draft, so readers keep its live
 * values), without a revision of its own.
 */
async function shareWithGroup(ctx: AuthorizedContext, tx: Transaction, collection: LoadedCollection, row: store.EntryRow, values: Record<string, unknown>): Promise<void> {
  const shared = sharedValues(collection, values);
  if (Object.keys(shared).length === 0) return;
  const columns = toColumns(collection.fields, shared);
  for (const member of await store.groupMembers(tx, collection.tableName, row._group)) {
    if (member._id === row._id) continue;
    const kind = stagesDraft(collection, member) ? 'draftStaged' : 'updated';
    await writeEntry(ctx, tx, collection, { kind, row: member, changes: { ...columns, ...draftChanges(collection, member) }, sharedFrom: row._id });
  }
}
