import type { Expression, SqlBool } from 'kysely';
import type { z } from 'zod';
import { isoNow } from '../core/clock.ts';
import { decodeCursor, encodeCursor } from '../core/cursor.ts';
import { AppError, validationError } from '../core/errors.ts';
import { defineOperation, type AuthorizedContext } from '../core/operation.ts';
import { contentCreate, contentEditorRead, contentListRead, contentRead, contentUpdate, contentWrite } from './access.ts';
import { toPage, type Page } from '../core/pagination.ts';
import { dataBeforeSave } from '../plugins/events.ts';
import { creditIssues, creditsColumn } from '../bylines/credits.ts';
import { inTransaction } from '../db/dialect.ts';
import type { Db } from '../db/connection.ts';
import { sortKind } from '../fields/columns.ts';
import { lockCollection, requireCollection } from '../schema/lookup.ts';
import type { LoadedCollection } from '../schema/store.ts';
import { readSettings } from '../settings/read.ts';
import { mergeSeo, seoColumn, seoSnapshot, storedSeo } from '../seo/values.ts';
import { termFilter } from '../taxonomies/filter.ts';
import { columnData, decodeRev, entryItem, isLive, liveData, toEntry, withMedia, type Entry } from './entries.ts';
import { validateEntryData } from './field-values.ts';
import { findEntry, loadEntry, readDuringSchemaChange, viewOf } from './lookup.ts';
import { assertSlugFree, databaseIssues, explicitSlugIssues, generateSlug, lockEntryForSave, mapUniqueViolation, sharedValues } from './saving.ts';
import type { CreateEntryBody, ListEntriesQuery, ListTrashQuery, UpdateEntryBody } from './schemas.ts';
import * as store from './store.ts';
import { titleContains } from './title-filter.ts';
import { newEntryRow, saveValues, staleRev, writeEntry } from './write.ts';

type EntryItem = { item: Entry };
type EntryRef = { collection: string; id: string };

/** The system sort keys, their columns and whether those can be NULL (DECISIONS §3 `orderBy`). */
const systemOrder: Record<string, { column: string; nullable: boolean }> = {
  createdAt: { column: '_created_at', nullable: false },
  updatedAt: { column: '_updated_at', nullable: false },
  publishedAt: { column: '_published_at', nullable: true },
  scheduledAt: { column: '_scheduled_at', nullable: true },
  slug: { column: '_slug', nullable: false },
};

/**
 * What a list orders by. Readers order a field by its live values (decisions/0007): the working
 * values of a staged draft must not show, not even through the order.
 */
function sortKeyFor(ctx: AuthorizedContext, collection: LoadedCollection, orderBy: string): store.SortKey {
  const system = Object.hasOwn(systemOrder, orderBy) ? systemOrder[orderBy] : undefined;
  if (system) return store.sortKeys.column(system.column, system.nullable);
  const field = collection.fields.find((candidate) => candidate.slug === orderBy);
  const kind = field && sortKind(field.type);
  if (field && kind) return viewOf(ctx) === 'reader' ? store.sortKeys.live(ctx.db, field.slug, kind) : store.sortKeys.column(field.slug);
  const sortable = [...Object.keys(systemOrder), ...collection.fields.filter((f) => sortKind(f.type) !== undefined).map((f) => f.slug)];
  throw validationError([{ path: 'orderBy', message: `${field ? 'Not a sortable field' : 'Unknown field'}; one of: ${sortable.join(', ')}` }]);
}

/**
 * One page in `column` order. The cursor names only the last entry of the previous page; its sort
 * value is read again from the database, so a cursor never carries a value (a staged draft's title,
 * a schedule) that its holder may not see.
 */
async function listPage(
  ctx: AuthorizedContext,
  collection: LoadedCollection,
  input: { cursor?: string; limit: number; key: store.SortKey; order: 'asc' | 'desc' },
  filters: Expression<SqlBool>[],
): Promise<Page<Entry>> {
  const { key } = input;
  const view = viewOf(ctx);
  return readDuringSchemaChange(async () => {
    let after: [unknown, string] | undefined;
    if (input.cursor !== undefined) {
      const [id] = decodeCursor(input.cursor, 1);
      const found = typeof id === 'string' ? await store.sortKeyOf(ctx.db, collection.tableName, key, id) : undefined;
      if (!found) throw validationError([{ path: 'cursor', message: 'Malformed cursor, or its entry was deleted for good' }]);
      after = found;
    }
    const rows = await store.listEntries(ctx.db, collection.tableName, { key, direction: input.order, after, limit: input.limit, filters });
    const page = toPage(rows, input.limit, (row) => encodeCursor([row._id]), (row) => toEntry(collection, row, view));
    await withMedia(ctx, ctx.db, collection, page.items);
    return page;
  });
}

export const listEntries = defineOperation({
  name: 'content.list',
  access: contentListRead,
  async run(ctx, input: { collection: string } & z.output<typeof ListEntriesQuery>): Promise<Page<Entry>> {
    const collection = await requireCollection(ctx.db, input.collection);
    const filters = [store.filters.notTrashed];
    if (viewOf(ctx) === 'reader') {
      // A reader's status filter can only be `published` (contentListRead): every live entry matches it.
      filters.push(store.filters.live);
    } else if (input.status !== undefined) {
      filters.push(store.filters.status(input.status));
    }
    if (input.locale !== undefined) filters.push(store.filters.locale(input.locale));
    if (input.author !== undefined) filters.push(store.filters.author(input.author));
    if (input.term !== undefined) filters.push(store.filters.hasTerm(collection.tableName, await termFilter(ctx.db, collection.slug, input.term)));
    if (input.q !== undefined) filters.push(titleContains(ctx, collection, input.q));
    return listPage(ctx, collection, { ...input, key: sortKeyFor(ctx, collection, input.orderBy ?? 'createdAt') }, filters);
  },
});

export const listTrash = defineOperation({
  name: 'content.listTrash',
  access: contentEditorRead,
  async run(ctx, input: { collection: string } & z.output<typeof ListTrashQuery>): Promise<Page<Entry>> {
    const collection = await requireCollection(ctx.db, input.collection);
    // Every entry of the trash has its `_deleted_at`.
    return listPage(ctx, collection, { ...input, key: store.sortKeys.column('_deleted_at', false), order: 'desc' }, [store.filters.trashed]);
  },
});

export const getEntry = defineOperation({
  name: 'content.get',
  access: contentRead,
  async run(ctx, input: EntryRef & { locale?: string }): Promise<EntryItem> {
    const { collection, row } = await readDuringSchemaChange(() => loadEntry(ctx, ctx.db, input));
    return entryItem(ctx, ctx.db, collection, row, viewOf(ctx));
  },
});

export const createEntry = defineOperation({
  name: 'content.create',
  access: contentCreate,
  async run(ctx, given: { collection: string } & z.output<typeof CreateEntryBody>): Promise<EntryItem> {
    // Plugins see the data before it is checked, so what they change is checked like the caller's own.
    const input = { ...given, data: await dataBeforeSave(ctx, { operation: 'create', collection: given.collection, data: given.data }) };
    const settings = await readSettings(ctx.db);
    const locale = input.locale ?? settings.defaultLocale;
    return mapUniqueViolation(
      await requireCollection(ctx.db, input.collection),
      () =>
        inTransaction(ctx.db, async (db) => {
          const collection = await lockCollection(db, input.collection, 'share');
          // A translation shares the group's non-translatable values (the group's win), so they count for required fields.
          const source = input.translationOf === undefined ? undefined : await requireTranslationSource(db, collection, input.translationOf);
          const data = source ? { ...input.data, ...sharedValues(collection, columnData(collection.fields, source)) } : input.data;
          const { values, issues } = validateEntryData(collection.fields, data, 'create');
          const seo = mergeSeo(collection, {}, input.seo);
          issues.push(...seo.issues, ...explicitSlugIssues(input.slug));
          if (!settings.locales.includes(locale)) issues.push({ path: 'locale', message: `Not one of the site's locales: ${settings.locales.join(', ')}` });
          if (issues.length > 0) throw validationError(issues);
          if (source) {
            const members = await store.groupMembers(db, collection.tableName, source._group);
            if (members.some((member) => member._locale === locale)) {
              throw new AppError('CONFLICT', `The translation group of ${source._id} already has a ${locale} version`, { reason: 'locale_exists' });
            }
          }
          const problems = [...(await databaseIssues(db, collection, values, locale)), ...(await creditIssues(db, input.bylines))];
          if (problems.length > 0) throw validationError(problems);
          const slug = input.slug ?? (await generateSlug(db, collection, values, locale));
          if (input.slug !== undefined) await assertSlugFree(db, collection, slug, locale);
          const publish = input.status === 'published';
          const row = newEntryRow(ctx, collection, { slug, locale, group: source?._group, published: publish, values });
          row._bylines = creditsColumn(input.bylines ?? []);
          row._seo = seoColumn(seo.seo);
          // Published at once while its source has a staged draft, a translation goes live with the group's
          // live shared values; the draft ones wait in its columns, as on the source.
          if (publish && source && source._live !== null) row._live = JSON.stringify({ ...values, ...sharedValues(collection, liveData(collection.fields, source)), ...seoSnapshot(row._seo) });
          return entryItem(ctx, db, collection, await writeEntry(ctx, db, collection, { kind: 'created', row, revision: true }), 'editor');
        }),
      { slugGenerated: input.slug === undefined },
    );
  },
});

/** The entry a new translation joins, locked; naming one that does not exist is bad input, not a missing URL. */
async function requireTranslationSource(db: Db, collection: LoadedCollection, ref: string): Promise<store.EntryRow> {
  const source = await findEntry(db, collection, { ref, view: 'editor', lock: true });
  if (!source) throw validationError([{ path: 'translationOf', message: `No entry ${ref} in ${collection.slug}` }]);
  return source;
}

export const updateEntry = defineOperation({
  name: 'content.update',
  access: contentUpdate,
  async run(ctx, given: EntryRef & z.output<typeof UpdateEntryBody>): Promise<EntryItem> {
    const data = await dataBeforeSave(ctx, { operation: 'update', collection: given.collection, entryId: given.id, data: given.data ?? {} });
    const input = { ...given, data };
    return mapUniqueViolation(await requireCollection(ctx.db, input.collection), () =>
      inTransaction(ctx.db, async (db) => {
        const collection = await lockCollection(db, input.collection, 'share');
        const { values, issues } = validateEntryData(collection.fields, input.data ?? {}, 'update');
        // Checked before the entry is read; merged over its stored values once it is.
        issues.push(...mergeSeo(collection, {}, input.seo).issues, ...explicitSlugIssues(input.slug));
        if (issues.length > 0) throw validationError(issues);
        const row = await lockEntryForSave(db, collection, input.id, viewOf(ctx), values);
        const seo = input.seo === undefined ? undefined : mergeSeo(collection, storedSeo(row._seo), input.seo).seo;
        const expectedVersion = input._rev === undefined ? undefined : decodeRev(input._rev, row._id);
        if (expectedVersion !== undefined && expectedVersion !== row._version) throw staleRev();
        const problems = [...(await databaseIssues(db, collection, values, row._locale, row._id)), ...(await creditIssues(db, input.bylines))];
        if (problems.length > 0) throw validationError(problems);
        if (input.slug !== undefined && input.slug !== row._slug) await assertSlugFree(db, collection, input.slug, row._locale, row._id);
        const saved = await saveValues(ctx, db, collection, row, values, { slug: input.slug, status: input.status, bylines: input.bylines, seo, expectedVersion: expectedVersion ?? row._version });
        return entryItem(ctx, db, collection, saved, 'editor');
      }),
    );
  },
});

export const trashEntry = defineOperation({
  name: 'content.delete',
  access: contentWrite,
  async run(ctx, input: EntryRef): Promise<{ success: true }> {
    return inTransaction(ctx.db, async (db) => {
      const { collection, row } = await loadEntry(ctx, db, input, { lock: true });
      // A trashed entry must not go live on its own: its schedule is cancelled (status as unschedule leaves it).
      const changes: Record<string, unknown> = { _deleted_at: isoNow(ctx.clock), _scheduled_at: null };
      if (row._status === 'scheduled') changes._status = isLive(row) ? 'published' : 'draft';
      await writeEntry(ctx, db, collection, { kind: 'trashed', row, changes });
      return { success: true as const };
    });
  },
});
