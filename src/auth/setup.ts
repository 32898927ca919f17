import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock.ts';
import { access, defineOperation } from '../core/operation.ts';
import type { Db } from '../db/connection.ts';
import { hasAnyUser } from '../users/store.ts';
import { hashSecret } from './secrets.ts';

/** First-run setup (DECISIONS §6, decisions/0021): the first admin, by the setup page or the CLI. */

export async function isSetupComplete(db: Db): Promise<boolean> {
  return (await db.kysely.selectFrom('setup_state').select('id').executeTakeFirst()) !== undefined;
}

/** Marks setup done and forgets every setup secret; a second call changes nothing. */
export async function completeSetup(db: Db, clock: Clock): Promise<void> {
  await db.kysely.insertInto('setup_state').values({ id: 1, completed_at: clock.now().toISOString() }).onConflict((conflict) => conflict.column('id').doNothing()).execute();
  await db.kysely.deleteFrom('setup_secrets').execute();
}

/**
 * A new secret for the setup link a starting server prints. Each process adds its own, so every link
 * printed works until setup is complete; only the hash is kept.
 */
export async function createSetupSecret(db: Db, clock: Clock): Promise<string> {
  const secret = randomBytes(24).toString('base64url');
  await db.kysely.insertInto('setup_secrets').values({ secret_hash: hashSecret(secret), created_at: clock.now().toISOString() }).execute();
  return secret;
}

export async function isSetupSecret(db: Db, secret: string): Promise<boolean> {
  return (await db.kysely.selectFrom('setup_secrets').select('created_at').where('secret_hash', '=', hashSecret(secret)).executeTakeFirst()) !== undefined;
}

/** `GET /setup/status`: always public (DECISIONS §2). */
export const getSetupStatus = defineOperation({
  name: 'setup.status',
  access: access.public,
  async run(ctx): Promise<{ setupComplete: boolean; hasUsers: boolean }> {
    const [setupComplete, hasUsers] = await Promise.all([isSetupComplete(ctx.db), hasAnyUser(ctx.db)]);
    return { setupComplete, hasUsers };
  },
});
