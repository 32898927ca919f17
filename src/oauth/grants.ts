import type { z } from 'zod';
import { newId } from '../core/ids.ts';
import { notFound } from '../core/errors.ts';
import { access, defineOperation, type AuthorizedContext } from '../core/operation.ts';
import type { Scope } from '../core/roles.ts';
import type { Db } from '../db/connection.ts';
import { isUniqueViolation } from '../db/dialect.ts';
import { parseScopes } from '../auth/store.ts';
import type { Grant, GrantListQuery } from './schemas.ts';
import * as store from './store.ts';

/**
 * Grants: a user's consent to a client, what the account's "connected apps" lists. Consent is
 * remembered per user and client with the scopes approved so far; approving more widens it.
 */
export async function recordConsent(db: Db, userId: string, clientId: string, scopes: readonly Scope[], now: Date): Promise<string> {
  const existing = await store.findGrant(db, userId, clientId);
  if (existing) {
    const widened = [...new Set([...parseScopes(existing.scopes), ...scopes])];
    await store.setGrantScopes(db, existing.id, widened.join(' '));
    return existing.id;
  }
  const id = newId();
  try {
    await store.insertGrant(db, { id, user_id: userId, client_id: clientId, scopes: scopes.join(' '), created_at: now.toISOString(), last_used_at: null });
    return id;
  } catch (error) {
    // Two consents of one user to one client at once: the other made the row; widen it instead.
    if (!isUniqueViolation(error)) throw error;
    return recordConsent(db, userId, clientId, scopes, now);
  }
}

function toGrant(row: Awaited<ReturnType<typeof store.listGrants>>[number]): Grant {
  return { id: row.id, userId: row.user_id, clientId: row.client_id, clientName: row.client_name, scopes: parseScopes(row.scopes), createdAt: row.created_at, lastUsedAt: row.last_used_at };
}

/** The caller's connected apps (own account, no scope). */
export const listOwnGrants = defineOperation({
  name: 'oauth.grants.listOwn',
  access: access.ownAccount,
  async run(ctx): Promise<{ items: Grant[] }> {
    return { items: (await store.listGrants(ctx.db, ctx.actor?.userId)).map(toGrant) };
  },
});

/** Disconnects one of the caller's apps: its grant, codes and tokens go at once. */
export const revokeOwnGrant = defineOperation({
  name: 'oauth.grants.revokeOwn',
  access: access.ownAccount,
  async run(ctx, input: { id: string }): Promise<{ success: true }> {
    return revokeGrant(ctx, input.id, ctx.actor?.userId);
  },
});

export const listGrants = defineOperation({
  name: 'oauth.grants.list',
  access: access.scope('admin'),
  async run(ctx, input: z.output<typeof GrantListQuery>): Promise<{ items: Grant[] }> {
    return { items: (await store.listGrants(ctx.db, input.userId)).map(toGrant) };
  },
});

export const adminRevokeGrant = defineOperation({
  name: 'oauth.grants.revoke',
  access: access.scope('admin'),
  async run(ctx, input: { id: string }): Promise<{ success: true }> {
    return revokeGrant(ctx, input.id, undefined);
  },
});

/** Someone else's grant is as good as missing: 404 either way. */
async function revokeGrant(ctx: AuthorizedContext, id: string, ownerId: string | undefined): Promise<{ success: true }> {
  const grant = await store.findGrantById(ctx.db, id);
  if (!grant || (ownerId !== undefined && grant.user_id !== ownerId)) throw notFound('Grant');
  await store.deleteGrant(ctx.db, id);
  return { success: true };
}
