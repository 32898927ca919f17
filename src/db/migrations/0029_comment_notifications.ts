import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { changeChannel, changeTrigger } from '../change-feed.ts';
import type { Dialect } from '../connection.ts';

/**
 * PostgreSQL: `comments` notifies every Folio process when it changes (change-feed.ts, decisions/0052),
 * so the public read of an entry's comments is kept in memory there too (comments/read.ts,
 * decisions/0058). The last notification (`schema.*`) tells running processes to look again.
 */
export function commentNotifications(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
      if (dialect !== 'postgres') return;
      await sql`create or replace trigger ${sql.id(changeTrigger)} after insert or update or delete or truncate on comments for each statement execute function folio_notify_change()`.execute(db);
      await sql`select pg_notify(${sql.lit(changeChannel)}, current_schema() || '.*')`.execute(db);
    },
  };
}
