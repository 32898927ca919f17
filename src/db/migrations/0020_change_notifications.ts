import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { changeChannel, changeTrigger } from '../change-feed.ts';
import type { Dialect } from '../connection.ts';

/**
 * PostgreSQL: the tables whose reads are kept in memory notify every Folio process when they change
 * (change-feed.ts, decisions/0052). Not the tables every content write changes (search documents, an
 * entry's terms): a transaction that notifies holds a lock of the whole database from its commit to
 * its end, so notifying there would make every save wait for the one before it. Their reads go to
 * the database. The migration's last notification (`schema.*`) tells running processes to look again.
 */
const notifyingTables = ['api_tokens', 'users', 'collections', 'fields', 'settings', 'plugin_states', 'webhook_subscriptions', 'taxonomies', 'taxonomy_collections', 'terms'];

export function changeNotifications(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
      if (dialect !== 'postgres') return;
      await sql`create or replace function folio_notify_change() returns trigger language plpgsql as $$
        begin
          perform pg_notify(${sql.lit(changeChannel)}, tg_table_schema || '.' || tg_table_name);
          return null;
        end $$`.execute(db);
      for (const table of notifyingTables) {
        await sql`create or replace trigger ${sql.id(changeTrigger)} after insert or update or delete or truncate on ${sql.table(table)} for each statement execute function folio_notify_change()`.execute(db);
      }
      await sql`select pg_notify(${sql.lit(changeChannel)}, current_schema() || '.*')`.execute(db);
    },
  };
}
