import { randomBytes } from 'node:crypto';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import type { z } from 'zod';
import type { Clock } from '../core/clock.ts';
import type { Context } from '../core/context.ts';
import { AppError, validationError } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { access, defineOperation } from '../core/operation.ts';
import { roles } from '../core/roles.ts';
import type { Db } from '../db/connection.ts';
import { inTransaction, succeedsUnlessTaken } from '../db/dialect.ts';
import type { User } from '../users/schemas.ts';
import { findUserByEmail, hasAnyUser, insertUser, toUser, type UserRow } from '../users/store.ts';
import { insertPasskey } from './passkey-store.ts';
import { signInLimits, spendByClient } from './rate-limit.ts';
import { hashSecret } from './secrets.ts';
import { sessionTokenFrom, startSession, type IssuedSession } from './sessions.ts';
import type { SetupAdminBody, SetupAdminOptionsBody } from './sign-in-schemas.ts';
import { relyingParty, simpleWebAuthn, spendChallenge, storeChallenge, verifiedPasskeyRow } from './webauthn.ts';

/** First-run setup (DECISIONS §6, decisions/0021, 0011): the first admin, by the setup page or the CLI. */

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

function emailTaken(email: string): AppError {
  return new AppError('CONFLICT', `A user with email ${email} already exists`, { issues: [{ path: 'email', message: 'already in use' }] });
}

/** What both setup steps check first: the rate limit, setup not complete, the printed link's secret. */
async function checkSetupLink(ctx: Context, secret: string): Promise<void> {
  await spendByClient(ctx, signInLimits.setup, undefined);
  if (await isSetupComplete(ctx.db)) throw setupRefused('setup_complete');
  if (!(await isSetupSecret(ctx.db, secret))) throw setupRefused('setup_secret');
}

/**
 * The first admin's account exists only once their passkey does (decisions/0011, amendment): the
 * options step stores nothing but the challenge, so a ceremony the browser refuses or the person
 * cancels leaves no account, and the same link simply works again. The new account's id travels
 * inside the challenge (random bytes, then the id): the challenge row cannot name a user that does
 * not exist yet, and the signed challenge, found in our table, proves the id is the one we issued.
 */
const challengeRandomBytes = 32;

function setupChallenge(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.concat([randomBytes(challengeRandomBytes), Buffer.from(userId, 'utf8')]));
}

function userIdOfSetupChallenge(challenge: string): string {
  return Buffer.from(challenge, 'base64url').subarray(challengeRandomBytes).toString('utf8');
}

/** Step one of the setup page: WebAuthn options for the first admin's passkey. Creates no account. */
export const firstAdminPasskeyOptions = defineOperation({
  name: 'setup.admin.options',
  access: access.public,
  async run(ctx, input: z.output<typeof SetupAdminOptionsBody>): Promise<PublicKeyCredentialCreationOptionsJSON> {
    await checkSetupLink(ctx, input.secret);
    // Users made otherwise (`folio user create`) do not complete setup: say so before the ceremony, not after.
    if (await findUserByEmail(ctx.db, input.email)) throw emailTaken(input.email);
    const party = relyingParty(ctx);
    const userId = newId();
    const options = await (await simpleWebAuthn()).generateRegistrationOptions({
      rpName: party.name,
      rpID: party.id,
      userName: input.email,
      userDisplayName: input.name,
      userID: new TextEncoder().encode(userId),
      challenge: setupChallenge(userId),
      attestationType: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    await storeChallenge(ctx, options.challenge, 'setup', null);
    return options;
  },
});

/**
 * Step two: with the secret of a printed setup link and the registration of step one's options,
 * creates the first admin with that passkey, completes setup and signs them in, all in one
 * transaction: of two attempts at once, one inserts the completion row and the other is refused.
 */
export const createFirstAdmin = defineOperation({
  name: 'setup.admin',
  access: access.public,
  async run(ctx, input: z.output<typeof SetupAdminBody> & { cookie?: string }): Promise<{ item: User; session: IssuedSession }> {
    await checkSetupLink(ctx, input.secret);
    const challenge = await spendChallenge(ctx, input.passkey, 'setup', null, passkeyRefused);
    const userId = userIdOfSetupChallenge(challenge);
    const passkey = await verifiedPasskeyRow(ctx, { response: input.passkey, challenge, userId, name: 'First passkey' }, passkeyRefused);
    const now = ctx.clock.now().toISOString();
    const row: UserRow = { id: userId, email: input.email, name: input.name, role: roles.admin, disabled: 0, created_at: now, updated_at: now, last_sign_in_at: null };
    await inTransaction(ctx.db, async (db) => {
      if (!(await succeedsUnlessTaken(() => db.kysely.insertInto('setup_state').values({ id: 1, completed_at: now }).execute()))) throw setupRefused('setup_complete');
      await db.kysely.deleteFrom('setup_secrets').execute();
      if (!(await succeedsUnlessTaken(() => insertUser(db, row)))) throw emailTaken(input.email);
      await insertPasskey(db, passkey);
    });
    const session = await startSession(ctx, row, 'setup', sessionTokenFrom(input.cookie, ctx.config));
    return { item: toUser(row), session };
  },
});

/** A registration that does not verify names the field that carried it. */
function passkeyRefused(message: string): AppError {
  return validationError([{ path: 'passkey', message }]);
}
