import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { z } from 'zod';
import { AppError, notFound } from '../core/errors.ts';
import { access, defineOperation, type AuthorizedContext } from '../core/operation.ts';
import { inTransaction, isUniqueViolation } from '../db/dialect.ts';
import { findUserById, toUser } from '../users/store.ts';
import type { User } from '../users/schemas.ts';
import { mailerOf } from './magic-links.ts';
import * as store from './passkey-store.ts';
import { signInLimits, spendByClient } from './rate-limit.ts';
import { sessionTokenFrom, startSession, type IssuedSession } from './sessions.ts';
import type { PasskeyAssertionBody, PasskeyRegistrationBody, RenamePasskeyBody } from './sign-in-schemas.ts';
import { registrationRefused, relyingParty, signInRefused, simpleWebAuthn, spendChallenge, storeChallenge, verifiedPasskeyRow } from './webauthn.ts';

/** Passkeys (DECISIONS §6): WebAuthn with `@simplewebauthn/server`, at most 10 a user. */
export const maxPasskeysPerUser = 10;

/** Sign-in options: no credential listed, so the browser offers the site's discoverable passkeys. */
export const passkeySignInOptions = defineOperation({
  name: 'auth.passkey.options',
  access: access.public,
  async run(ctx): Promise<PublicKeyCredentialRequestOptionsJSON> {
    await spendByClient(ctx, signInLimits.passkeySignIn, undefined);
    const options = await (await simpleWebAuthn()).generateAuthenticationOptions({ rpID: relyingParty(ctx).id, userVerification: 'preferred' });
    await storeChallenge(ctx, options.challenge, 'authentication', null);
    return options;
  },
});

/**
 * Verifies an assertion and starts a session. The challenge is spent before anything is checked, so
 * a failed attempt cannot be retried with it; the signature counter refuses a replayed assertion
 * of an authenticator that counts.
 */
export const passkeySignIn = defineOperation({
  name: 'auth.passkey.verify',
  access: access.public,
  async run(ctx, input: z.output<typeof PasskeyAssertionBody> & { cookie?: string }): Promise<{ item: User; session: IssuedSession }> {
    const { cookie, ...response } = input;
    await spendByClient(ctx, signInLimits.passkeySignIn, response.id);
    const challenge = await spendChallenge(ctx, response, 'authentication', null, signInRefused);
    const passkey = await store.findPasskeyByCredentialId(ctx.db, response.id);
    if (!passkey) throw signInRefused('this passkey is not registered here');
    const party = relyingParty(ctx);
    let verified;
    try {
      verified = await (await simpleWebAuthn()).verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: party.origin,
        expectedRPID: party.id,
        credential: { id: passkey.credential_id, publicKey: Buffer.from(passkey.public_key, 'base64url'), counter: Number(passkey.counter), transports: JSON.parse(passkey.transports) as string[] },
        requireUserVerification: false,
      });
    } catch (error) {
      throw signInRefused((error as Error).message);
    }
    if (!verified.verified) throw signInRefused('the signature does not verify');
    const user = await findUserById(ctx.db, passkey.user_id);
    if (!user || user.disabled === 1) throw signInRefused('the account is disabled');
    await store.recordUse(ctx.db, passkey.id, verified.authenticationInfo.newCounter, ctx.clock.now().toISOString());
    const session = await startSession(ctx, user, 'passkey', sessionTokenFrom(cookie, ctx.config));
    return { item: toUser(user), session };
  },
});

function requireActor(ctx: AuthorizedContext) {
  if (!ctx.actor) throw new AppError('FORBIDDEN', 'Passkeys belong to users: the system principal has none');
  return ctx.actor;
}

/** Options for adding a passkey to the signed-in user's account. */
export const passkeyRegistrationOptions = defineOperation({
  name: 'auth.passkey.register.options',
  access: access.ownAccount,
  async run(ctx): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const actor = requireActor(ctx);
    await spendByClient(ctx, signInLimits.passkeyRegister, actor.userId);
    const existing = await store.listPasskeyRows(ctx.db, actor.userId);
    if (existing.length >= maxPasskeysPerUser) throw tooManyPasskeys();
    const party = relyingParty(ctx);
    const options = await (await simpleWebAuthn()).generateRegistrationOptions({
      rpName: party.name,
      rpID: party.id,
      userName: actor.email,
      userDisplayName: actor.name,
      userID: new TextEncoder().encode(actor.userId),
      attestationType: 'none',
      excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: JSON.parse(row.transports) as string[] })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    await storeChallenge(ctx, options.challenge, 'registration', actor.userId);
    return options;
  },
});

function tooManyPasskeys(): AppError {
  return new AppError('CONFLICT', `A user may have at most ${maxPasskeysPerUser} passkeys: delete one first`, { reason: 'passkey_limit', limit: maxPasskeysPerUser });
}

export const registerPasskey = defineOperation({
  name: 'auth.passkey.register.verify',
  access: access.ownAccount,
  async run(ctx, input: z.output<typeof PasskeyRegistrationBody>): Promise<{ item: store.Passkey }> {
    const actor = requireActor(ctx);
    const { name, ...response } = input;
    await spendByClient(ctx, signInLimits.passkeyRegister, actor.userId);
    const challenge = await spendChallenge(ctx, response, 'registration', actor.userId, registrationRefused);
    const row = await verifiedPasskeyRow(ctx, { response, challenge, userId: actor.userId, name: name ?? 'Passkey' }, registrationRefused);
    return inTransaction(ctx.db, async (db) => {
      await store.lockUser(db, actor.userId);
      if ((await store.listPasskeyRows(db, actor.userId)).length >= maxPasskeysPerUser) throw tooManyPasskeys();
      try {
        await store.insertPasskey(db, row);
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'This passkey is registered already', { reason: 'passkey_exists' });
        throw error;
      }
      return { item: store.toPasskey(row) };
    });
  },
});

export const listPasskeys = defineOperation({
  name: 'auth.passkey.list',
  access: access.ownAccount,
  async run(ctx): Promise<{ items: store.Passkey[] }> {
    const actor = requireActor(ctx);
    return { items: (await store.listPasskeyRows(ctx.db, actor.userId)).map(store.toPasskey) };
  },
});

export const renamePasskey = defineOperation({
  name: 'auth.passkey.rename',
  access: access.ownAccount,
  async run(ctx, input: { id: string } & z.output<typeof RenamePasskeyBody>): Promise<{ item: store.Passkey }> {
    const actor = requireActor(ctx);
    const row = await store.renamePasskeyRow(ctx.db, actor.userId, input.id, input.name);
    if (!row) throw notFound('Passkey');
    return { item: store.toPasskey(row) };
  },
});

/**
 * Deletes one of the caller's passkeys, unless it is their last way in: another passkey, or magic
 * links, which count only when mail really goes out (SMTP configured).
 */
export const deletePasskey = defineOperation({
  name: 'auth.passkey.delete',
  access: access.ownAccount,
  async run(ctx, input: { id: string }): Promise<{ success: true }> {
    const actor = requireActor(ctx);
    return inTransaction(ctx.db, async (db) => {
      await store.lockUser(db, actor.userId);
      const rows = await store.listPasskeyRows(db, actor.userId);
      if (!rows.some((row) => row.id === input.id)) throw notFound('Passkey');
      if (rows.length === 1 && !mailerOf(ctx).delivers) {
        throw new AppError('CONFLICT', 'This is your only way to sign in (no other passkey, and no mail server for sign-in links): add another passkey first', {
          reason: 'last_way_in',
        });
      }
      await store.deletePasskeyRow(db, actor.userId, input.id);
      return { success: true };
    });
  },
});
