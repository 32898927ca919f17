import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { changeChannel, changeTrigger } from '../change-feed.ts';
import type { Dialect } from '../connection.ts';

/**
 * Redirects (src/redirects/, docs/decisions/0057): old addresses of the site, from a normalized path
 * to a path or an absolute URL. A site asks for one on its 404 path, so `from_path` is unique (its
 * index answers the lookup) and the lookup's answer is kept in memory (db/read-cache.ts): on
 * PostgreSQL the table notifies every process when it changes, as the tables of 0020 do.
 *
 * Hits are counted in a table of their own, so counting one (a write on every lookup that finds a
 * redirect) does not make the remembered answers of `redirects` stale; they go with their redirect.
 */
export function redirects(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
      await db.schema
        .createTable('redirects')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('from_path', 'text', (column) => column.notNull().unique())
        // As given: a path on the site (with its query, if any) or an absolute http(s) URL.
        .addColumn('to_target', 'text', (column) => column.notNull())
        // The normalized path of a `to_target` on the site, null for another site: what chains follow.
        .addColumn('to_path', 'text')
        .addColumn('status', 'integer', (column) => column.notNull())
        // `manual`, `automatic` (a published entry's slug changed) or `import`.
        .addColumn('source', 'text', (column) => column.notNull())
        // The entry the redirect leads to, for automatic and imported ones: its collection slug and id.
        .addColumn('entry_collection', 'text')
        .addColumn('entry_id', 'text')
        // 1 once that entry went to the trash or was deleted.
        .addColumn('target_missing', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
      await db.schema.createIndex('redirects_to_path').on('redirects').column('to_path').execute();
      await db.schema.createIndex('redirects_entry').on('redirects').columns(['entry_id', 'entry_collection']).execute();
      await db.schema
        .createTable('redirect_hits')
        .addColumn('redirect_id', 'text', (column) => column.primaryKey().references('redirects.id').onDelete('cascade'))
        .addColumn('hits', 'integer', (column) => column.notNull())
        .addColumn('last_hit_at', 'text', (column) => column.notNull())
        .execute();
      if (dialect !== 'postgres') return;
      await sql`create or replace trigger ${sql.id(changeTrigger)} after insert or update or delete or truncate on redirects for each statement execute function folio_notify_change()`.execute(db);
      await sql`select pg_notify(${sql.lit(changeChannel)}, current_schema() || '.*')`.execute(db);
    },
  };
}
