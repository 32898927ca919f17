import { isoNow } from '../core/clock.ts';
import { validationError } from '../core/errors.ts';
import { defineOperation, type AuthorizedContext } from '../core/operation.ts';
import { inTransaction, type Transaction } from '../db/dialect.ts';
import { normalizeDateTime } from '../fields/types/datetime.ts';
import { checkFieldValue } from '../fields/values.ts';
import { requireCollection } from '../schema/lookup.ts';
import type { LoadedCollection } from '../schema/store.ts';
import { columnData, entryItem, isLive, liveData, liveSeo, toColumns, type Entry } from './entries.ts';
import { seoColumn, seoOut, storedSeo } from '../seo/values.ts';
import { fillMediaValues } from './media-values.ts';
import { loadEntry, viewOf } from './lookup.ts';
import { contentEditorRead, contentPublish, contentRead, contentWrite } from './access.ts';
import { brokenReferences, generateSlug, mapUniqueViolation } from './saving.ts';
import * as store from './store.ts';
import { newEntryRow, publishRow, statusChanges, writeEntry, type EntryWrite } from './write.ts';

/**
 * The state changes of mcp.md §3 beyond create and update. Each runs in one transaction on the
 * locked entry and returns the entry as it is afterwards.
 */

type EntryRef = { collection: string; id: string };
type EntryItem = { item: Entry };

/** One change of state through the write path, answered with the entry as it is afterwards. */
async function change(ctx: AuthorizedContext, db: Transaction, collection: LoadedCollection, write: EntryWrite): Promise<EntryItem> {
  return entryItem(ctx, db, collection, await writeEntry(ctx, db, collection, write), 'editor');
}

function entryOperation(
  name: string,
  run: (ctx: AuthorizedContext, db: Transaction, collection: LoadedCollection, row: store.EntryRow) => Promise<EntryItem>,
  { includeTrashed = false, rule = contentWrite }: { includeTrashed?: boolean; rule?: typeof contentWrite } = {},
) {
  return defineOperation({
    name,
    access: rule,
    async run(ctx, input: EntryRef): Promise<EntryItem> {
      return inTransaction(ctx.db, async (db) => {
        const { collection, row } = await loadEntry(ctx, db, input, { lock: true, includeTrashed });
        return run(ctx, db, collection, row);
      });
    },
  });
}

export const publishEntry = entryOperation('content.publish', async (ctx, db, collection, row) =>
  entryItem(ctx, db, collection, await publishRow(ctx, db, collection, row), 'editor'), { rule: contentPublish },
);

export const unpublishEntry = entryOperation('content.unpublish', (ctx, db, collection, row) =>
  change(ctx, db, collection, { kind: 'unpublished', row, changes: statusChanges('draft', isoNow(ctx.clock)) }), { rule: contentPublish },
);

export const scheduleEntry = defineOperation({
  name: 'content.schedule',
  access: contentPublish,
  async run(ctx, input: EntryRef & { scheduledAt: string }): Promise<EntryItem> {
    // A date-time, not a bare date: a publication time must say when in the day.
    const at = /t/i.test(input.scheduledAt) ? normalizeDateTime(input.scheduledAt) : undefined;
    if (at === undefined) throw validationError([{ path: 'scheduledAt', message: 'Must be an ISO 8601 date-time such as 2030-01-01T09:00:00Z' }]);
    if (at <= isoNow(ctx.clock)) throw validationError([{ path: 'scheduledAt', message: 'Must be in the future' }]);
    return inTransaction(ctx.db, async (db) => {
      const { collection, row } = await loadEntry(ctx, db, input, { lock: true });
      return change(ctx, db, collection, { kind: 'scheduled', row, changes: { _status: 'scheduled', _scheduled_at: at } });
    });
  },
});

/** A scheduled entry goes back to draft, or stays published when a live version exists; not scheduled: no change. */
export const unscheduleEntry = entryOperation('content.unschedule', async (ctx, db, collection, row) => {
  if (row._status !== 'scheduled') return entryItem(ctx, db, collection, row, 'editor');
  return change(ctx, db, collection, { kind: 'unscheduled', row, changes: { _status: isLive(row) ? 'published' : 'draft', _scheduled_at: null } });
}, { rule: contentPublish });

/** Takes an entry out of the trash with the status it had; one not in the trash is left as it is. */
export const restoreEntry = entryOperation(
  'content.restore',
  async (ctx, db, collection, row) =>
    row._deleted_at === null ? entryItem(ctx, db, collection, row, 'editor') : change(ctx, db, collection, { kind: 'restored', row, changes: { _deleted_at: null } }),
  { includeTrashed: true },
);

export const permanentlyDeleteEntry = defineOperation({
  name: 'content.permanentDelete',
  access: contentWrite,
  async run(ctx, input: EntryRef): Promise<{ success: true }> {
    return inTransaction(ctx.db, async (db) => {
      const { collection, row } = await loadEntry(ctx, db, input, { lock: true, includeTrashed: true });
      if (row._deleted_at === null) throw validationError([{ path: 'id', message: 'The entry must be moved to the trash first' }]);
      await writeEntry(ctx, db, collection, { kind: 'deleted', row });
      return { success: true as const };
    });
  },
});

/** Back to the last published version: the staged draft is dropped. */
export const discardDraft = entryOperation('content.discardDraft', async (ctx, db, collection, row) => {
  if (!isLive(row)) throw validationError([{ path: 'id', message: 'The entry has no published version to go back to' }]);
  if (row._live === null && row._status === 'published') return entryItem(ctx, db, collection, row, 'editor');
  // The live values go back into the columns, where a unique value may have been taken meanwhile.
  const changes = { ...toColumns(collection.fields, liveData(collection.fields, row)), _seo: seoColumn(liveSeo(row)), _live: null, _status: 'published', _scheduled_at: null };
  return mapUniqueViolation(collection, () => change(ctx, db, collection, { kind: 'draftDiscarded', row, changes }));
});

/**
 * A new draft with the same values: the title gets a copy marker and the slug is generated anew.
 * Unique fields are left empty, since a copy cannot share their values.
 */
export const duplicateEntry = defineOperation({
  name: 'content.duplicate',
  access: contentWrite,
  async run(ctx, input: EntryRef): Promise<EntryItem> {
    return mapUniqueViolation(
      await requireCollection(ctx.db, input.collection),
      () =>
      inTransaction(ctx.db, async (db) => {
        // The copy's columns come from the collection as it stands, held against schema changes.
        const { collection, row } = await loadEntry(ctx, db, input, { lock: true });
        const values = columnData(collection.fields, row);
        markCopy(collection, values);
        for (const field of collection.fields) if (field.unique) values[field.slug] = null;
        // A reference whose entry or media item is not there is not copied: a create would refuse it.
        for (const { field } of await brokenReferences(db, collection, values)) values[field] = null;
        const slug = await generateSlug(db, collection, values, row._locale);
        // The copy keeps the SEO values too: it is a draft to edit, as its field values are.
        const copy = { ...newEntryRow(ctx, collection, { slug, locale: row._locale, published: false, values }), _seo: row._seo };
        return change(ctx, db, collection, { kind: 'created', row: copy, revision: true });
      }),
      { slugGenerated: true },
    );
  },
});

/** Adds the copy marker to `title` (else `name`), unless the longer value would break the field's rules. */
function markCopy(collection: LoadedCollection, values: Record<string, unknown>): void {
  const key = ['title', 'name'].find((candidate) => typeof values[candidate] === 'string');
  const field = collection.fields.find((candidate) => candidate.slug === key);
  if (!key || !field) return;
  const marked = `${values[key] as string} (Copy)`;
  if (checkFieldValue(field, marked).ok) values[key] = marked;
}

export const compareEntry = defineOperation({
  name: 'content.compare',
  access: contentEditorRead,
  async run(ctx, input: EntryRef): Promise<{ published: Record<string, unknown> | null; draft: Record<string, unknown>; hasChanges: boolean }> {
    const { collection, row } = await loadEntry(ctx, ctx.db, input);
    const draft = columnData(collection.fields, row);
    const published = isLive(row) ? liveData(collection.fields, row) : null;
    // Compared as stored, before the media values are filled in; a draft that changes only the SEO values is a change too.
    const seoChanged = JSON.stringify(seoOut(liveSeo(row))) !== JSON.stringify(seoOut(storedSeo(row._seo)));
    const hasChanges = published === null || seoChanged || JSON.stringify(published) !== JSON.stringify(draft);
    await fillMediaValues(ctx, ctx.db, collection.fields, published === null ? [draft] : [draft, published]);
    return { published, draft, hasChanges };
  },
});

export const listTranslations = defineOperation({
  name: 'content.translations',
  access: contentRead,
  async run(ctx, input: EntryRef) {
    const { collection, row } = await loadEntry(ctx, ctx.db, input);
    const members = await store.groupMembers(ctx.db, collection.tableName, row._group);
    const reader = viewOf(ctx) === 'reader';
    const visible = members.filter((member) => (reader ? isLive(member) && member._deleted_at === null : true));
    return {
      translationGroup: row._group,
      items: visible.map((member) => ({
        id: member._id,
        locale: member._locale,
        slug: member._slug,
        status: reader ? ('published' as const) : member._status,
        updatedAt: member._updated_at,
        trashed: member._deleted_at !== null,
      })),
    };
  },
});
