import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../connection.ts';
import { createSqliteSearchFilterIndex } from '../search-sqlite.ts';

/** SQLite: the narrow index a search's matches are filtered through (search-sqlite.ts). PostgreSQL's search reads no such join. */
export function searchFilterIndex(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'sqlite') await createSqliteSearchFilterIndex(db);
    },
  };
}
