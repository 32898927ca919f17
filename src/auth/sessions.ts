import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Clock } from '../core/clock.ts';
import { userPrincipal, type Context, type UserPrincipal } from '../core/context.ts';
import { unauthorized } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { scopesForRole } from '../core/roles.ts';
import type { Db } from '../db/connection.ts';
import { inTransaction } from '../db/dialect.ts';
import { emitEvent } from '../plugins/events.ts';
import type { CredentialResolver } from '../http/credentials.ts';
import { hashSecret } from './secrets.ts';

/**
 * Browser sessions (decisions/0021): a random token in an HttpOnly cookie, only its hash in the
 * database, so any process serves any request and a stolen database holds no usable cookie.
 */

/** A session just issued: the cookie's value and when it ends at the latest. */
export interface IssuedSession {
  token: string;
  expiresAt: string;
}

/** `__Host-` on https: the browser then refuses the cookie from any other host, path or insecure page. */
export function sessionCookieName(config: Pick<Config, 'publicUrl'>): string {
  return isHttps(config) ? '__Host-folio_session' : 'folio_session';
}

function isHttps(config: Pick<Config, 'publicUrl'>): boolean {
  return config.publicUrl?.startsWith('https:') ?? false;
}

/** The Set-Cookie header that hands out a session, or (null) takes it back. */
export function sessionCookie(config: Pick<Config, 'publicUrl'>, session: IssuedSession | null): string {
  const attributes = ['Path=/', 'HttpOnly', 'SameSite=Lax', ...(isHttps(config) ? ['Secure'] : [])];
  const name = sessionCookieName(config);
  if (session === null) return [`${name}=`, 'Max-Age=0', ...attributes].join('; ');
  return [`${name}=${session.token}`, `Expires=${new Date(session.expiresAt).toUTCString()}`, ...attributes].join('; ');
}

/** The session token a Cookie header carries, if any. */
export function sessionTokenFrom(cookieHeader: string | undefined, config: Pick<Config, 'publicUrl'>): string | undefined {
  if (cookieHeader === undefined) return undefined;
  const name = sessionCookieName(config);
  for (const part of cookieHeader.split(';')) {
    const separator = part.indexOf('=');
    if (separator !== -1 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/**
 * Starts a session for a user who just proved who they are (`method` says how). A session the
 * browser already had is ended: signing in always gives a new token (no session fixation), and never
 * leaves the old one alive. The plugins hear of it (`user:afterSignIn`) in the same transaction.
 */
export async function startSession(
  ctx: Pick<Context, 'db' | 'clock' | 'config' | 'log' | 'plugins'>,
  user: { id: string; email: string; name: string },
  method: 'passkey' | 'magicLink' | 'invitation' | 'setup',
  previousToken?: string,
): Promise<IssuedSession> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + ctx.config.sessionMaxAgeMs).toISOString();
  const sessionId = newId();
  await inTransaction(ctx.db, async (tx) => {
    if (previousToken !== undefined) await tx.kysely.deleteFrom('sessions').where('token_hash', '=', hashSecret(previousToken)).execute();
    await tx.kysely
      .insertInto('sessions')
      .values({ id: sessionId, token_hash: hashSecret(token), user_id: user.id, created_at: now.toISOString(), last_seen_at: now.toISOString(), expires_at: expiresAt })
      .execute();
    await tx.kysely.updateTable('users').set({ last_sign_in_at: now.toISOString() }).where('id', '=', user.id).execute();
    const actor = { kind: 'user' as const, userId: user.id, email: user.email, credential: { type: 'session', id: sessionId } };
    await emitEvent(ctx, tx, 'user:afterSignIn', { user: { id: user.id, email: user.email, name: user.name }, method, sessionId, actor });
  });
  return { token, expiresAt };
}

export async function endSession(db: Db, id: string): Promise<void> {
  await db.kysely.deleteFrom('sessions').where('id', '=', id).execute();
}

// Moving last-seen on every request would turn each read into a write; a minute's precision is plenty.
const lastSeenPrecisionMs = 60_000;

/**
 * The session cookie, an ambient credential: resolveCredentials makes state-changing requests that
 * carry it pass the CSRF origin check. A session holds every scope its user's role allows (DECISIONS
 * §2), read afresh at each request, so a demoted or disabled user is seen at once.
 */
export function sessionCookies(config: Pick<Config, 'publicUrl' | 'sessionIdleMs'>): CredentialResolver {
  return {
    name: 'session',
    ambient: true,
    async resolve(request) {
      const token = sessionTokenFrom(request.header('cookie'), config);
      if (token === undefined) return null;
      return authenticateSession(request.db, request.clock, config, token);
    },
  };
}

async function authenticateSession(db: Db, clock: Clock, config: Pick<Config, 'sessionIdleMs'>, token: string): Promise<UserPrincipal> {
  if (!/^[\w-]{1,128}$/.test(token)) throw unauthorized();
  const row = await db.kysely
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.id as sessionId', 'sessions.last_seen_at as lastSeenAt', 'sessions.expires_at as expiresAt', 'users.id as userId', 'users.email', 'users.name', 'users.role', 'users.disabled'])
    .where('sessions.token_hash', '=', hashSecret(token))
    .executeTakeFirst();
  if (!row || row.disabled === 1) throw unauthorized();
  const now = clock.now().getTime();
  if (now >= Date.parse(row.expiresAt) || now - Date.parse(row.lastSeenAt) >= config.sessionIdleMs) {
    // Bookkeeping: an expired row is of no use to anyone; a failed delete changes nothing for the caller.
    await endSession(db, row.sessionId).catch(() => undefined);
    throw unauthorized();
  }
  if (now - Date.parse(row.lastSeenAt) >= lastSeenPrecisionMs) {
    await db.kysely.updateTable('sessions').set({ last_seen_at: new Date(now).toISOString() }).where('id', '=', row.sessionId).execute().catch(() => undefined);
  }
  return userPrincipal(row, scopesForRole(row.role), { type: 'session', id: row.sessionId });
}
