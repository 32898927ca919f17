import { isIP } from 'node:net';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Context } from '../core/context.ts';
import { AppError, validationError } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import type { PasskeyRow } from './passkey-store.ts';

/**
 * The WebAuthn library is loaded on the first passkey request: it and its dependencies weigh some
 * 25 MB, which a server that never sees a passkey (or has not yet) need not carry.
 */
export const simpleWebAuthn = () => import('@simplewebauthn/server');

/** WebAuthn challenges are single use and live 5 minutes (DECISIONS §6). */
export const challengeLifetimeMs = 5 * 60_000;

/**
 * `setup` is the first admin's registration, before the account exists: its challenge names no user
 * (the row could not reference one) and carries the new account's id itself (src/auth/setup.ts).
 */
export type ChallengePurpose = 'authentication' | 'registration' | 'setup';

/**
 * The relying party: its id is the host of Folio's base URL (`PUBLIC_URL`, else the request's
 * origin), and a credential is accepted only from that exact origin.
 */
export function relyingParty(ctx: Pick<Context, 'baseUrl'>): { id: string; origin: string; name: string } {
  const url = new URL(ctx.baseUrl);
  return { id: url.hostname, origin: url.origin, name: 'Folio' };
}

/**
 * Browsers refuse WebAuthn on an IP address (Chromium: "This is an invalid domain"): the relying
 * party's id must be a domain name, so passkeys cannot work at such an address.
 */
export function isIpAddressUrl(url: string): boolean {
  return isIP(new URL(url).hostname.replace(/^\[|\]$/g, '')) !== 0;
}

export async function storeChallenge(ctx: Pick<Context, 'db' | 'clock'>, challenge: string, purpose: ChallengePurpose, userId: string | null): Promise<void> {
  const now = ctx.clock.now().getTime();
  // Expired challenges of anyone go with each new one, so the table holds only live ones.
  await ctx.db.kysely.deleteFrom('webauthn_challenges').where('expires_at', '<=', new Date(now).toISOString()).execute();
  await ctx.db.kysely
    .insertInto('webauthn_challenges')
    .values({ challenge, purpose, user_id: userId, expires_at: new Date(now + challengeLifetimeMs).toISOString() })
    .execute();
}

/**
 * Spends the challenge a response signed: it is read from the response's client data and deleted as
 * it is read, so a response (or a copy of it) can be verified once. Unknown, used, expired, or issued
 * for another purpose or user: refused, and gone either way.
 */
export async function spendChallenge(
  ctx: Pick<Context, 'db' | 'clock'>,
  response: AuthenticationResponseJSON | RegistrationResponseJSON,
  purpose: ChallengePurpose,
  userId: string | null,
  refuse: (message: string) => AppError,
): Promise<string> {
  const challenge = challengeOf(response.response.clientDataJSON);
  if (challenge === undefined) throw refuse('The response carries no readable client data');
  const row = await ctx.db.kysely.deleteFrom('webauthn_challenges').where('challenge', '=', challenge).returning(['purpose', 'user_id', 'expires_at']).executeTakeFirst();
  if (!row || row.purpose !== purpose || row.user_id !== userId) throw refuse('The challenge is unknown or was already used: ask for new options');
  if (Date.parse(row.expires_at) <= ctx.clock.now().getTime()) throw refuse('The challenge expired: ask for new options');
  return challenge;
}

function challengeOf(clientDataJSON: string): string | undefined {
  try {
    const clientData = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof clientData.challenge === 'string' && clientData.challenge.length <= 512 ? clientData.challenge : undefined;
  } catch {
    return undefined;
  }
}

/** Sign-in failures: one 401, with what failed in `details.reason` (never whether a user exists). */
export function signInRefused(message: string): AppError {
  return new AppError('UNAUTHORIZED', `Passkey sign-in failed: ${message}`, { reason: 'passkey' });
}

/** A registration the signed-in user sent that does not verify: their input is wrong, a 400. */
export function registrationRefused(message: string): AppError {
  return validationError([{ path: 'response', message }]);
}

/**
 * Verifies a registration against the challenge it signed and gives the passkey row to store for
 * `userId`; refused with `refuse` when it does not verify. Shared by adding a passkey and by setup.
 */
export async function verifiedPasskeyRow(
  ctx: Pick<Context, 'baseUrl' | 'clock'>,
  registration: { response: RegistrationResponseJSON; challenge: string; userId: string; name: string },
  refuse: (message: string) => AppError,
): Promise<PasskeyRow> {
  const { response, challenge } = registration;
  const party = relyingParty(ctx);
  let verified;
  try {
    verified = await (await simpleWebAuthn()).verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: party.origin, expectedRPID: party.id, requireUserVerification: false });
  } catch (error) {
    throw refuse((error as Error).message);
  }
  if (!verified.verified) throw refuse('The attestation does not verify');
  const { credential } = verified.registrationInfo;
  return {
    id: newId(),
    user_id: registration.userId,
    credential_id: credential.id,
    public_key: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: JSON.stringify(credential.transports ?? response.response.transports ?? []),
    name: registration.name,
    created_at: ctx.clock.now().toISOString(),
    last_used_at: null,
  };
}
