import type { Db } from '../db/connection.ts';
import { sql } from 'kysely';
import type { Context } from '../core/context.ts';
import { AppError } from '../core/errors.ts';

/**
 * Rate limits (DECISIONS §6), counted in the database so they hold across processes and restarts:
 * a fixed window per key, counted and read in one atomic upsert on both engines.
 */
export interface RateLimit {
  /** Names the counter; part of its key. */
  name: string;
  /** Requests allowed per window. */
  limit: number;
  windowMs: number;
}

/** Every limit of sign-in in one place, so they are read and tuned together. */
export const signInLimits = {
  /** Passkey sign-in, options and verify together, per client. */
  passkeySignIn: { name: 'passkey-sign-in', limit: 30, windowMs: 5 * 60_000 },
  /** Magic-link mails, per client and per address the mail would go to. */
  magicLinkClient: { name: 'magic-link-client', limit: 10, windowMs: 15 * 60_000 },
  magicLinkAddress: { name: 'magic-link-address', limit: 5, windowMs: 15 * 60_000 },
  /** Following a link (a guessed token would be tried here), per client. */
  magicLinkVerify: { name: 'magic-link-verify', limit: 20, windowMs: 15 * 60_000 },
  /** Registering passkeys, per client (per account without one). */
  passkeyRegister: { name: 'passkey-register', limit: 30, windowMs: 15 * 60_000 },
  /** Invitations sent, per client (per inviting account without one). */
  invite: { name: 'invite', limit: 20, windowMs: 60 * 60_000 },
  /** Accepting an invitation and the setup page's steps, per client. */
  invitationAccept: { name: 'invitation-accept', limit: 10, windowMs: 15 * 60_000 },
  setup: { name: 'setup', limit: 10, windowMs: 15 * 60_000 },
} as const satisfies Record<string, RateLimit>;

// Counters whose window ended this long ago are of no use; each window is a day at most.
const staleAfterMs = 86_400_000;

/**
 * Counts one request against `limit` for `subject`; past the limit, 429 RATE_LIMITED whose
 * `details.retryAfter` (seconds until the window ends) the REST adapter sends as `Retry-After`.
 */
export async function spend(ctx: Pick<Context, 'db' | 'clock'>, limit: RateLimit, subject: string): Promise<void> {
  const now = ctx.clock.now();
  const nowText = now.toISOString();
  const windowEnded = new Date(now.getTime() - limit.windowMs).toISOString();
  const started = sql.ref('rate_limits.window_started_at');
  const row = await ctx.db.kysely
    .insertInto('rate_limits')
    .values({ key: `${limit.name}:${subject}`, window_started_at: nowText, count: 1 })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet({
        count: sql<number>`case when ${started} <= ${windowEnded} then 1 else ${sql.ref('rate_limits.count')} + 1 end`,
        window_started_at: sql<string>`case when ${started} <= ${windowEnded} then ${nowText} else ${started} end`,
      }),
    )
    .returning(['count', 'window_started_at'])
    .executeTakeFirstOrThrow();
  if (Number(row.count) <= limit.limit) return;
  const retryAfter = Math.max(1, Math.ceil((Date.parse(row.window_started_at) + limit.windowMs - now.getTime()) / 1000));
  throw new AppError('RATE_LIMITED', `Too many requests: try again in ${retryAfter} seconds`, { retryAfter });
}

/**
 * Counts a request against the client's address (TRUST_PROXY decides which); a request that came
 * with none (no socket) counts against the account it is about, so the limit still holds.
 */
export async function spendByClient(ctx: Pick<Context, 'db' | 'clock' | 'clientAddress'>, limit: RateLimit, account: string | undefined): Promise<void> {
  const subject = ctx.clientAddress !== undefined ? `address:${ctx.clientAddress}` : account !== undefined ? `account:${account}` : 'unknown';
  await spend(ctx, limit, subject);
}

/** Drops counters whose window ended long ago (system/housekeeping.ts sweeps with it). */
export async function pruneRateLimits(db: Db, now: Date): Promise<void> {
  await db.kysely.deleteFrom('rate_limits').where('window_started_at', '<', new Date(now.getTime() - staleAfterMs).toISOString()).execute();
}
