import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Context } from '../core/context.ts';
import { AppError, validationError } from '../core/errors.ts';

/** WebAuthn challenges are single use and live 5 minutes (DECISIONS §6). */
export const challengeLifetimeMs = 5 * 60_000;

export type ChallengePurpose = 'authentication' | 'registration';

/**
 * The relying party: its id is the host of Folio's base URL (`PUBLIC_URL`, else the request's
 * origin), and a credential is accepted only from that exact origin.
 */
export function relyingParty(ctx: Pick<Context, 'baseUrl'>): { id: string; origin: string; name: string } {
  const url = new URL(ctx.baseUrl);
  return { id: url.hostname, origin: url.origin, name: 'Folio' };
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
