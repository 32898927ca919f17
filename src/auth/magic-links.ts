import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { Context } from '../core/context.ts';
import { validationError } from '../core/errors.ts';
import { access, defineOperation } from '../core/operation.ts';
import { findUserByEmail, toUser } from '../users/store.ts';
import type { User } from '../users/schemas.ts';
import { createMailer, type Mail } from './mail.ts';
import { signInLimits, spend, spendByClient } from './rate-limit.ts';
import { landingPath, signInReturnOrLanding } from './return-path.ts';
import { hashSecret } from './secrets.ts';
import { sessionTokenFrom, startSession, type IssuedSession } from './sessions.ts';
import type { MagicLinkSendBody } from './sign-in-schemas.ts';

/** Magic links (DECISIONS §6): single use, 15 minutes, only the token's hash stored. */
export const magicLinkLifetimeMs = 15 * 60_000;

/** The page a mail's link opens; the page's button spends the token (a mail scanner's GET does not). */
export const magicLinkPagePath = '/_cms/sign-in/link';

/**
 * `send` answers the same whether or not the address is known, in the same time: the work on the
 * response path (the two rate limits) is the same for every address, and the lookup, the link and
 * the mail happen after the response (mail.ts).
 */
export const sendMagicLink = defineOperation({
  name: 'auth.magicLink.send',
  access: access.public,
  async run(ctx, input: z.output<typeof MagicLinkSendBody>): Promise<{ success: true }> {
    await spendByClient(ctx, signInLimits.magicLinkClient, input.email);
    await spend(ctx, signInLimits.magicLinkAddress, input.email);
    mailerOf(ctx).deliverLater(async () => {
      const user = await findUserByEmail(ctx.db, input.email);
      if (!user || user.disabled === 1) return undefined;
      return signInMail(ctx, user.id, user.email, input.return);
    });
    return { success: true };
  },
});

/**
 * Stores a new link for the user and writes the mail that carries it. `returnPath` (already checked
 * as one of Folio's pages) rides in the link, so the person who asked from an OAuth consent comes
 * back to it, in whichever browser opens the mail, without a column to remember it in.
 */
export async function signInMail(ctx: Context, userId: string, email: string, returnPath?: string): Promise<Mail> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  await ctx.db.kysely
    .insertInto('magic_links')
    .values({ token_hash: hashSecret(token), user_id: userId, created_at: now.toISOString(), expires_at: new Date(now.getTime() + magicLinkLifetimeMs).toISOString() })
    .execute();
  const continues = returnPath !== undefined && returnPath !== landingPath;
  const link = `${ctx.baseUrl}${magicLinkPagePath}?token=${token}${continues ? `&return=${encodeURIComponent(returnPath)}` : ''}`;
  // Said in the mail: a link someone else asked for would lead to a page they chose (an app to approve).
  const then = continues ? ' and to go back to where you asked for it (for example an app to connect)' : '';
  return {
    to: email,
    subject: 'Your sign-in link',
    text: `Open this link within 15 minutes to sign in${then}:\n\n${link}\n\nIt works once. If you did not ask for it, ignore this mail.\n`,
    link,
  };
}

export function mailerOf(ctx: Context) {
  return ctx.mailer ?? createMailer(ctx.config, ctx.log);
}

/**
 * Spends a link: the row is deleted as it is read, so of two uses at once only one finds it. A link
 * that is unknown, used, expired, or whose user was disabled since is refused alike.
 */
export const verifyMagicLink = defineOperation({
  name: 'auth.magicLink.verify',
  access: access.public,
  async run(ctx, input: { token: string; return?: string; cookie?: string }): Promise<{ item: User; session: IssuedSession; returnTo: string }> {
    await spendByClient(ctx, signInLimits.magicLinkVerify, undefined);
    const link = await ctx.db.kysely.deleteFrom('magic_links').where('token_hash', '=', hashSecret(input.token)).returning(['user_id', 'expires_at']).executeTakeFirst();
    const refused = validationError([{ path: 'token', message: 'This sign-in link is invalid, expired or already used: ask for a new one' }]);
    if (!link || Date.parse(link.expires_at) <= ctx.clock.now().getTime()) throw refused;
    const user = await ctx.db.kysely.selectFrom('users').selectAll().where('id', '=', link.user_id).executeTakeFirst();
    if (!user || user.disabled === 1) throw refused;
    const session = await startSession(ctx, user, 'magicLink', sessionTokenFrom(input.cookie, ctx.config));
    return { item: toUser(user), session, returnTo: signInReturnOrLanding(input.return) };
  },
});
