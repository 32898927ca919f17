import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { Clock } from '../core/clock.ts';
import { AppError } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { access, defineOperation } from '../core/operation.ts';
import { roles } from '../core/roles.ts';
import type { Db } from '../db/connection.ts';
import { inTransaction, succeedsUnlessTaken } from '../db/dialect.ts';
import type { User } from '../users/schemas.ts';
import { hasAnyUser, insertUser, toUser, type UserRow } from '../users/store.ts';
import { signInLimits, spendByClient } from './rate-limit.ts';
import { hashSecret } from './secrets.ts';
import { sessionTokenFrom, startSession, type IssuedSession } from './sessions.ts';
import type { SetupAdminBody } from './sign-in-schemas.ts';

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

/** The setup page, opened from the link a starting server prints. */
export const setupPagePath = '/_cms/setup';

function setupRefused(reason: 'setup_complete' | 'setup_secret'): AppError {
  return reason === 'setup_complete'
    ? new AppError('FORBIDDEN', 'Setup is complete: the first admin exists; sign in instead', { reason })
    : new AppError('FORBIDDEN', 'This setup link is not valid: use the one the server printed at start', { reason });
}

/**
 * The setup page's first step: with the secret of a printed setup link, creates the first admin and
 * signs them in (the page then registers their passkey). It completes setup in the same transaction:
 * of two attempts at once, one inserts the completion row and the other is refused.
 */
export const createFirstAdmin = defineOperation({
  name: 'setup.admin',
  access: access.public,
  async run(ctx, input: z.output<typeof SetupAdminBody> & { cookie?: string }): Promise<{ item: User; session: IssuedSession }> {
    await spendByClient(ctx, signInLimits.setup, undefined);
    if (await isSetupComplete(ctx.db)) throw setupRefused('setup_complete');
    if (!(await isSetupSecret(ctx.db, input.secret))) throw setupRefused('setup_secret');
    const now = ctx.clock.now().toISOString();
    const row: UserRow = { id: newId(), email: input.email, name: input.name, role: roles.admin, disabled: 0, created_at: now, updated_at: now };
    await inTransaction(ctx.db, async (db) => {
      if (!(await succeedsUnlessTaken(() => db.kysely.insertInto('setup_state').values({ id: 1, completed_at: now }).execute()))) throw setupRefused('setup_complete');
      await db.kysely.deleteFrom('setup_secrets').execute();
      if (!(await succeedsUnlessTaken(() => insertUser(db, row)))) {
        throw new AppError('CONFLICT', `A user with email ${input.email} already exists`, { issues: [{ path: 'email', message: 'already in use' }] });
      }
    });
    const session = await startSession(ctx, row, 'setup', sessionTokenFrom(input.cookie, ctx.config));
    return { item: toUser(row), session };
  },
});
