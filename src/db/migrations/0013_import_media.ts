import type { Kysely } from 'kysely';

/**
 * WordPress media import (src/import/media/, decisions/0027): a media item gets the title its
 * attachment had (WordPress keeps title, alt text and caption apart; Folio had the last two).
 */
export async function up(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
  await db.schema.alterTable('media').addColumn('title', 'text').execute();
}
