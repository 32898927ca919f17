import type { z } from 'zod';
import { decodeCursor, encodeCursor } from '../core/cursor.ts';
import { validationError } from '../core/errors.ts';
import { defineOperation } from '../core/operation.ts';
import { toPage, type Page } from '../core/pagination.ts';
import { requireCollection } from '../schema/lookup.ts';
import { contentEditorRead } from './access.ts';
import { readDuringSchemaChange } from './lookup.ts';
import type { AuthorsQuery } from './schemas.ts';
import * as store from './store.ts';

/**
 * The people a collection's list can be filtered by (`author=`): the users who created its entries,
 * by name, for the panel's author picker. The same readers as that filter (Contributors and up, who
 * may see who wrote what); a name and an id, never an email, which stays the admins'.
 */
export const listAuthors = defineOperation({
  name: 'content.authors',
  access: contentEditorRead,
  async run(ctx, input: z.output<typeof AuthorsQuery>): Promise<Page<store.AuthorRow>> {
    const collection = await requireCollection(ctx.db, input.collection);
    let after: [string, string] | undefined;
    if (input.cursor !== undefined) {
      const [id] = decodeCursor(input.cursor, 1);
      const name = typeof id === 'string' ? await store.userName(ctx.db, id) : undefined;
      if (name === undefined) throw validationError([{ path: 'cursor', message: 'Malformed cursor, or its user was deleted' }]);
      after = [name, id as string];
    }
    const rows = await readDuringSchemaChange(() => store.authorsOf(ctx.db, collection.tableName, { search: input.q, after, limit: input.limit }));
    return toPage(rows, input.limit, (row) => encodeCursor([row.id]), (row) => ({ id: row.id, name: row.name }));
  },
});
