import type { z } from 'zod';
import { notFound, validationError } from '../core/errors.ts';
import { defineOperation } from '../core/operation.ts';
import { inTransaction } from '../db/dialect.ts';
import { entryItem, type Entry } from '../content/entries.ts';
import { contentEditorRead, contentWrite } from '../content/access.ts';
import { loadEntry } from '../content/lookup.ts';
import { databaseIssues, lockEntryForSave, mapUniqueViolation } from '../content/saving.ts';
import { saveValues } from '../content/write.ts';
import { validateEntryData } from '../content/field-values.ts';
import type { Db } from '../db/connection.ts';
import { lockCollection } from '../schema/lookup.ts';
import type { LoadedCollection } from '../schema/store.ts';
import * as schemaStore from '../schema/store.ts';
import type { RevisionSchema } from './schemas.ts';
import * as store from './store.ts';
import { hasSeo, seoKey, seoOut, storedSeo } from '../seo/values.ts';

type Revision = z.infer<typeof RevisionSchema>;

function toRevision(collection: LoadedCollection, row: store.NamedRevisionRow): Revision {
  // The SEO values are kept beside the field values, under a key no field can have.
  const { [seoKey]: seo, ...data } = JSON.parse(row.data) as Record<string, unknown>;
  const revision: Revision = { id: row.id, collection: collection.slug, entryId: row.entry_id, slug: row.slug, data, createdAt: row.created_at };
  if (hasSeo(collection)) revision.seo = seoOut(storedSeo(seo));
  if (row.author_id !== null) revision.authorId = row.author_id;
  if (row.author_name !== null) revision.authorName = row.author_name;
  return revision;
}

function requireRevisions(collection: LoadedCollection): void {
  if (!collection.supports.includes('revisions')) {
    throw validationError([{ path: 'collection', message: `Collection ${collection.slug} does not keep revisions (supports has no "revisions")` }]);
  }
}

export const listRevisions = defineOperation({
  name: 'revisions.list',
  access: contentEditorRead,
  async run(ctx, input: { collection: string; id: string; limit: number }): Promise<{ items: Revision[]; total: number }> {
    const { collection, row } = await loadEntry(ctx, ctx.db, input, { includeTrashed: true });
    requireRevisions(collection);
    const rows = await store.listRevisionRows(ctx.db, row._id, input.limit);
    return { items: rows.map((revision) => toRevision(collection, revision)), total: await store.countRevisions(ctx.db, row._id) };
  },
});

/** A revision and the collection it belongs to; a revision of a collection since deleted is gone with it. */
async function requireRevision(db: Db, id: string, options: { lock?: boolean } = {}) {
  const row = await store.findRevision(db, id);
  let collection = row && (await schemaStore.loadCollectionById(db, row.collection_id));
  if (!row || !collection) throw notFound(`Revision ${id}`);
  // A restore writes field columns: it holds the collection against schema changes, as content writes do.
  if (options.lock) collection = await lockCollection(db, collection.slug, 'share');
  return { row, collection };
}

export const getRevision = defineOperation({
  name: 'revisions.get',
  access: contentEditorRead,
  async run(ctx, input: { revisionId: string }): Promise<{ item: Revision }> {
    const { row, collection } = await requireRevision(ctx.db, input.revisionId);
    return { item: toRevision(collection, row) };
  },
});

/**
 * The revision's values become the current draft (fields removed since are ignored, fields added since
 * keep their value); a live entry keeps its live version until published. Adds a revision; never publishes.
 */
export const restoreRevision = defineOperation({
  name: 'revisions.restore',
  access: contentWrite,
  async run(ctx, input: { revisionId: string }): Promise<{ item: Entry }> {
    const { collection: owner } = await requireRevision(ctx.db, input.revisionId);
    return mapUniqueViolation(owner, () =>
      inTransaction(ctx.db, async (db) => {
        const { row: revision, collection } = await requireRevision(db, input.revisionId, { lock: true });
        const stored = JSON.parse(revision.data) as Record<string, unknown>;
        // Values are checked against the fields as they are now: a field may have changed since.
        const given = Object.fromEntries(collection.fields.filter((field) => Object.hasOwn(stored, field.slug)).map((field) => [field.slug, stored[field.slug]]));
        const { values, issues } = validateEntryData(collection.fields, given, 'update');
        const entry = await lockEntryForSave(db, collection, revision.entry_id, 'editor', values);
        issues.push(...(await databaseIssues(db, collection, values, entry._locale, entry._id)));
        if (issues.length > 0) throw validationError(issues, `The revision no longer fits the collection: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`);
        // The SEO values come back too: a revision without them restores none.
        const seo = hasSeo(collection) ? storedSeo(stored[seoKey]) : undefined;
        const saved = await saveValues(ctx, db, collection, entry, values, { seo });
        return entryItem(ctx, db, collection, saved, 'editor');
      }),
    );
  },
});
