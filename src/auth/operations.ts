import type { z } from 'zod';
import { isoNow } from '../core/clock.ts';
import { notFound, validationError } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { access, defineOperation } from '../core/operation.ts';
import { assertScopesWithinRole } from '../core/roles.ts';
import * as users from '../users/store.ts';
import type { CreateTokenBody, MeResponse, Token } from './schemas.ts';
import { generatePat, hashSecret } from './secrets.ts';
import * as store from './store.ts';

const adminOnly = access.scope('admin');

/** Creates a personal access token; the secret is returned here and never again. */
export const createToken = defineOperation({
  name: 'tokens.create',
  access: adminOnly,
  async run(ctx, input: z.output<typeof CreateTokenBody>): Promise<{ token: string; item: Token }> {
    const user = await users.findUserById(ctx.db, input.userId);
    if (!user) throw validationError([{ path: 'userId', message: 'No such user' }]);
    assertScopesWithinRole(input.scopes, user.role);
    if (input.expiresAt !== undefined && Date.parse(input.expiresAt) <= ctx.clock.now().getTime()) {
      throw validationError([{ path: 'expiresAt', message: 'Must be in the future' }]);
    }
    const secret = generatePat();
    const row: store.TokenRow = {
      id: newId(),
      user_id: user.id,
      name: input.name,
      token_hash: hashSecret(secret),
      scopes: input.scopes.join(' '),
      expires_at: input.expiresAt === undefined ? null : new Date(input.expiresAt).toISOString(),
      last_used_at: null,
      created_at: isoNow(ctx.clock),
    };
    await store.insertToken(ctx.db, row);
    return { token: secret, item: store.toToken(row) };
  },
});

export const listTokens = defineOperation({
  name: 'tokens.list',
  access: adminOnly,
  async run(ctx, input: { userId?: string }): Promise<{ items: Token[] }> {
    const rows = await store.listTokenRows(ctx.db, input.userId);
    return { items: rows.map(store.toToken) };
  },
});

export const revokeToken = defineOperation({
  name: 'tokens.revoke',
  access: adminOnly,
  async run(ctx, input: { id: string }): Promise<{ success: true }> {
    if (!(await store.deleteToken(ctx.db, input.id))) throw notFound('Token');
    return { success: true };
  },
});

/** The caller's own account and the scopes their credential carries right now. */
export const getCurrentUser = defineOperation({
  name: 'auth.me',
  access: access.ownAccount,
  async run(ctx): Promise<z.output<typeof MeResponse>> {
    const actor = ctx.actor;
    const user = actor && (await users.findUserById(ctx.db, actor.userId));
    if (!actor || !user) throw notFound('User');
    return { item: users.toUser(user), scopes: actor.scopes };
  },
});
