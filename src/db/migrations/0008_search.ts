import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../connection.ts';
import { createPostgresSearchTables } from '../search-postgres.ts';
import { createSqliteSearchTables } from '../search-sqlite.ts';

/**
 * Full-text search (src/search/, docs/decisions/0020): the documents with each engine's index, and
 * the folded title suffixes suggestions are read from. Collections start with an empty index; those
 * that already list `search` are filled by `POST /search/rebuild`.
 */
export function searchTables(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await (dialect === 'postgres' ? createPostgresSearchTables(db) : createSqliteSearchTables(db));
      // Byte order on both engines (PostgreSQL's "C" collation, SQLite's BINARY), so a prefix is a key range.
      const keyType = dialect === 'postgres' ? sql`text collate "C"` : sql`text`;
      await db.schema
        .createTable('search_title_keys')
        .addColumn('title_key', keyType, (column) => column.notNull())
        .addColumn('entry_id', 'text', (column) => column.notNull())
        .addColumn('variant', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('search_title_keys_pk', ['title_key', 'entry_id'])
        .addForeignKeyConstraint('search_title_keys_document', ['entry_id', 'variant'], 'search_documents', ['entry_id', 'variant'], (key) => key.onDelete('cascade'))
        .execute();
      await db.schema.createIndex('search_title_keys_entry').on('search_title_keys').columns(['entry_id', 'variant']).execute();
    },
  };
}
