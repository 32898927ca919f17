import type { Db } from './connection.ts';
import { postgresSearch } from './search-postgres.ts';
import { sqliteSearch } from './search-sqlite.ts';
import type { SearchEngine } from './search-types.ts';

/**
 * The full-text index behind one interface, one implementation per engine (docs/decisions/0020):
 * SQLite's FTS5, PostgreSQL's tsvector with a GIN index. Everything else of search (which entries,
 * which text, the query language, access) is the same on both and lives in src/search/.
 */
export function searchEngine(db: Pick<Db, 'dialect'>): SearchEngine {
  return db.dialect === 'postgres' ? postgresSearch : sqliteSearch;
}
