import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { Context } from '../core/context.ts';
import { roleName } from '../core/roles.ts';
import { AppError, validationError } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { access, defineOperation } from '../core/operation.ts';
import { inTransaction, isUniqueViolation } from '../db/dialect.ts';
import { findUserByEmail, insertUser, toUser, type UserRow } from '../users/store.ts';
import type { User } from '../users/schemas.ts';
import { mailerOf } from './magic-links.ts';
import { signInLimits, spendByClient } from './rate-limit.ts';
import { hashSecret } from './secrets.ts';
import { sessionTokenFrom, startSession, type IssuedSession } from './sessions.ts';
import type { AcceptInvitationBody, InviteBody } from './sign-in-schemas.ts';

/** Invitations: a single-use link, valid 7 days, to a page where the person names themself. */
export const invitationLifetimeMs = 7 * 86_400_000;

export const invitationPagePath = '/_cms/invitation';

export interface Invitation {
  id: string;
  email: string;
  role: number;
  expiresAt: string;
  createdAt: string;
}

function alreadyUser(email: string): AppError {
  return new AppError('CONFLICT', `A user with email ${email} already exists`, { issues: [{ path: 'email', message: 'already in use' }] });
}

/** Invites a person by mail; inviting the same address again replaces the earlier invitation. */
export const invite = defineOperation({
  name: 'auth.invite',
  access: access.scope('admin'),
  async run(ctx, input: z.output<typeof InviteBody>): Promise<{ item: Invitation }> {
    await spendByClient(ctx, signInLimits.invite, ctx.actor?.userId);
    if (await findUserByEmail(ctx.db, input.email)) throw alreadyUser(input.email);
    const token = randomBytes(32).toString('base64url');
    const now = ctx.clock.now();
    const item: Invitation = { id: newId(), email: input.email, role: input.role, createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + invitationLifetimeMs).toISOString() };
    await inTransaction(ctx.db, async (db) => {
      await db.kysely.deleteFrom('invitations').where('email', '=', input.email).execute();
      await db.kysely
        .insertInto('invitations')
        .values({ id: item.id, token_hash: hashSecret(token), email: item.email, role: item.role, invited_by: ctx.actor?.userId ?? null, created_at: item.createdAt, expires_at: item.expiresAt })
        .execute();
    });
    const link = `${ctx.baseUrl}${invitationPagePath}?token=${token}`;
    const inviter = ctx.actor?.name ?? 'An administrator';
    mailerOf(ctx).deliverLater(async () => ({
      to: item.email,
      subject: 'You are invited to Folio',
      text: `${inviter} invited you to Folio as ${roleName(item.role)}.\n\nOpen this link within 7 days to choose your name and a passkey:\n\n${link}\n\nIt works once.\n`,
      link,
    }));
    return { item };
  },
});

/** What an invitation link's page shows before it is accepted; undefined when the link is no good. */
export async function findInvitation(ctx: Pick<Context, 'db' | 'clock'>, token: string): Promise<Invitation | undefined> {
  const row = await ctx.db.kysely.selectFrom('invitations').selectAll().where('token_hash', '=', hashSecret(token)).executeTakeFirst();
  if (!row || Date.parse(row.expires_at) <= ctx.clock.now().getTime()) return undefined;
  return { id: row.id, email: row.email, role: row.role, expiresAt: row.expires_at, createdAt: row.created_at };
}

/**
 * Accepts an invitation: the account is made with the invited address and role, and signed in, so the
 * page can go on to register a passkey. The invitation is deleted as it is read: it works once.
 */
export const acceptInvitation = defineOperation({
  name: 'auth.invitation.accept',
  access: access.public,
  async run(ctx, input: z.output<typeof AcceptInvitationBody> & { cookie?: string }): Promise<{ item: User; session: IssuedSession }> {
    await spendByClient(ctx, signInLimits.invitationAccept, undefined);
    const user = await inTransaction(ctx.db, async (db) => {
      const invitation = await db.kysely.deleteFrom('invitations').where('token_hash', '=', hashSecret(input.token)).returningAll().executeTakeFirst();
      if (!invitation || Date.parse(invitation.expires_at) <= ctx.clock.now().getTime()) {
        throw validationError([{ path: 'token', message: 'This invitation is invalid, expired or already used: ask for a new one' }]);
      }
      const now = ctx.clock.now().toISOString();
      const row: UserRow = { id: newId(), email: invitation.email, name: input.name, role: invitation.role, disabled: 0, created_at: now, updated_at: now, last_sign_in_at: null };
      try {
        await insertUser(db, row);
      } catch (error) {
        if (isUniqueViolation(error)) throw alreadyUser(invitation.email);
        throw error;
      }
      return row;
    });
    const session = await startSession(ctx, user, 'invitation', sessionTokenFrom(input.cookie, ctx.config));
    return { item: toUser(user), session };
  },
});
