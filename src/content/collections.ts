import type { z } from 'zod';
import { defineOperation } from '../core/operation.ts';
import { collectionsWithFields, requireCollection } from '../schema/lookup.ts';
import { contentEditorRead } from './access.ts';
import type { ContentCollectionsQuery, ContentCollectionsResponse } from './schemas.ts';
import { countByState } from './store.ts';

/**
 * The collections as those who write entries need them: with their fields, which an editor's form and
 * a list's columns are made from. Schema reads stay Editors' (DECISIONS §2); a Contributor may still
 * know the shape of what they write. Counts are asked for, since each is a pass over the table.
 */
export const listContentCollections = defineOperation({
  name: 'content.collections',
  access: contentEditorRead,
  async run(ctx, input: z.output<typeof ContentCollectionsQuery>): Promise<z.output<typeof ContentCollectionsResponse>> {
    const collections = await collectionsWithFields(ctx.db);
    if (!input.counts) return { items: collections };
    const items = [];
    for (const collection of collections) {
      const { tableName } = await requireCollection(ctx.db, collection.slug);
      items.push({ ...collection, counts: await countByState(ctx.db, tableName) });
    }
    return { items };
  },
});
