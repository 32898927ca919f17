import type { z } from 'zod';
import { decodeCursor, encodeCursor } from '../core/cursor.ts';
import { notFound } from '../core/errors.ts';
import { access, defineOperation } from '../core/operation.ts';
import { roles } from '../core/roles.ts';
import type { Db } from '../db/connection.ts';
import { entriesByIds, type EntryRow } from '../content/store.ts';
import { loadCollectionById, type LoadedCollection } from '../schema/store.ts';
import { titleField } from '../search/documents.ts';
import { seoKey } from '../seo/values.ts';
import type { MediaUsageQuery, MediaUsageResponse } from './schemas.ts';
import * as store from './store.ts';
import { countUsingEntries, usagePage, type UsageRow } from './usage-store.ts';

type UsingEntry = z.infer<typeof MediaUsageResponse>['items'][number];

/** Usage names drafts and trashed entries: the editors' view of content, with the library's scope. */
const mediaUsageRead = access.scope('media:read', { minRole: roles.contributor });

/**
 * `GET /media/:id/usage` (decisions/0045): the entries whose values name the item, read from
 * `media_usage` (kept by the entry listener) and filled in from the entries' own tables, one
 * statement per collection on the page.
 */
export const mediaUsage = defineOperation({
  name: 'media.usage',
  access: mediaUsageRead,
  async run(ctx, input: { id: string } & z.output<typeof MediaUsageQuery>): Promise<z.infer<typeof MediaUsageResponse>> {
    if (!(await store.findMedia(ctx.db, input.id))) throw notFound(`Media ${input.id}`);
    const after = input.cursor === undefined ? undefined : String(decodeCursor(input.cursor, 1)[0]);
    const { entryIds, rows } = await usagePage(ctx.db, input.id, after, input.limit);
    const kept = entryIds.slice(0, input.limit);
    const entries = await usingEntries(ctx.db, rows);
    const page: z.infer<typeof MediaUsageResponse> = {
      items: kept.flatMap((id) => entries.get(id) ?? []),
      total: await countUsingEntries(ctx.db, input.id),
    };
    if (entryIds.length > input.limit) page.nextCursor = encodeCursor([kept.at(-1)!]);
    return page;
  },
});

/** Each entry of the rows as the response names it, by entry id. */
async function usingEntries(db: Db, rows: readonly UsageRow[]): Promise<Map<string, UsingEntry>> {
  const byCollection = new Map<string, UsageRow[]>();
  for (const row of rows) byCollection.set(row.collection_id, [...(byCollection.get(row.collection_id) ?? []), row]);
  const found = new Map<string, UsingEntry>();
  for (const [collectionId, own] of byCollection) {
    const collection = await loadCollectionById(db, collectionId);
    if (!collection) continue;
    const fieldSlugs = new Map(collection.fields.map((field) => [field.id, field.slug]));
    const entries = await entriesByIds(db, collection.tableName, [...new Set(own.map((row) => row.entry_id))]);
    for (const entry of entries) {
      const fields = own.filter((row) => row.entry_id === entry._id).flatMap((row) => fieldSlugs.get(row.field_id) ?? (row.field_id === seoKey ? [seoKey] : []));
      found.set(entry._id, describe(collection, entry, [...new Set(fields)].sort()));
    }
  }
  return found;
}

function describe(collection: LoadedCollection, entry: EntryRow, fields: string[]): UsingEntry {
  const title = titleField(collection.fields);
  const shown = title === undefined ? undefined : entry[title.slug];
  return {
    id: entry._id,
    collection: collection.slug,
    slug: entry._slug,
    locale: entry._locale,
    title: typeof shown === 'string' && shown.trim() !== '' ? shown : entry._slug,
    status: entry._status,
    deletedAt: entry._deleted_at,
    fields,
  };
}
