import { spend, spendByClient, type RateLimit } from '../auth/rate-limit.ts';
import type { Context } from '../core/context.ts';

/**
 * The public's comment limits (COMMENT_CLIENT_LIMIT, COMMENT_ENTRY_LIMIT per COMMENT_LIMIT_WINDOW):
 * per client address (per email when a request came without one), and per entry, so a crowd of
 * addresses cannot flood one entry either. Counted in the database like every rate limit, in the
 * post's transaction: a comment refused for another reason rolls its count back with it.
 */
export async function spendCommentLimits(ctx: Pick<Context, 'db' | 'clock' | 'clientAddress' | 'config'>, entryId: string, email: string): Promise<void> {
  const { clientLimit, entryLimit, windowMs } = ctx.config.comments;
  const perClient: RateLimit = { name: 'comment-client', limit: clientLimit, windowMs };
  const perEntry: RateLimit = { name: 'comment-entry', limit: entryLimit, windowMs };
  await spendByClient(ctx, perClient, email);
  await spend(ctx, perEntry, entryId);
}
