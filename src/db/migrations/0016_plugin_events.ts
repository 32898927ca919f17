import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../connection.ts';

/**
 * The plugins' event queue (decisions/0030): one narrow row per event, written in the transaction of
 * the change, naming the plugins that were listening then; each plugin takes its events from it in
 * batches once the change has committed. `seq` is the order the events happened in: an integer key
 * that only grows, so a row lands on the table's last page, next to the one before it.
 */
export function pluginEvents(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
      await db.schema
        .createTable('plugin_events')
        .addColumn('seq', dialect === 'postgres' ? sql`bigint generated always as identity` : 'integer', (column) => column.primaryKey())
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('at', 'text', (column) => column.notNull())
        // What the event is about, `type:id` (event-types.ts resourceOf): the audit log's resource, the webhooks' order key.
        .addColumn('resource', 'text', (column) => column.notNull())
        // The ids of the plugins still to take the event, each between commas: `,webhooks,audit-log,`.
        .addColumn('consumers', 'text', (column) => column.notNull())
        .addColumn('event', 'text', (column) => column.notNull())
        .execute();
    },
  };
}
