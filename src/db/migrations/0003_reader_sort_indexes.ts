import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../connection.ts';
import { createLiveSortIndex, type SortKind } from '../entry-tables.ts';

/** How each sortable field type compares, as it was when this migration was written. */
const sortKinds: Record<string, SortKind> = {
  string: 'text',
  slug: 'text',
  select: 'text',
  datetime: 'text',
  number: 'real',
  integer: 'integer',
  boolean: 'boolean',
};

/**
 * Readers' lists sorted by a field order by live values (docs/decisions/0007): every sortable field
 * of the collections that exist gets its live sort index. No row is rewritten.
 */
export function readerSortIndexes(dialect: Dialect): Migration {
  return {
    async up(kysely: Kysely<unknown>): Promise<void> {
      const db = kysely as Kysely<{ collections: { id: string; table_name: string }; fields: { id: string; collection_id: string; slug: string; type: string } }>;
      const fields = await db
        .selectFrom('fields')
        .innerJoin('collections', 'collections.id', 'fields.collection_id')
        .select(['fields.id', 'fields.slug', 'fields.type', 'collections.table_name'])
        .where('fields.type', 'in', Object.keys(sortKinds))
        .execute();
      for (const field of fields) await createLiveSortIndex({ kysely, dialect }, field.table_name, field.slug, field.id, sortKinds[field.type]!);
    },
  };
}
