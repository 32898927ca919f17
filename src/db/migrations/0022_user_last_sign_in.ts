import type { Kysely } from 'kysely';

/**
 * When each person last signed in (by passkey, link, invitation or setup), as the panel's people
 * screen shows it: stamped by auth/sessions.ts startSession. Unknown (null) for everyone until then.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('last_sign_in_at', 'text').execute();
}
