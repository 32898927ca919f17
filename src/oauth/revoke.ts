import type { z } from 'zod';
import { access, defineOperation } from '../core/operation.ts';
import { hashSecret } from '../auth/secrets.ts';
import { OAuthError } from './errors.ts';
import type { RevocationForm } from './schemas.ts';
import * as store from './store.ts';

/**
 * RFC 7009: a refresh token takes its whole family with it, an access token only itself. The answer
 * is the same whether or not the token was known (§2.2). A token of another client is left alone and
 * the request refused (§2.1), so a client is never told it revoked what it did not. Public clients
 * prove nothing but their `client_id`; one that names none is taken at the token's word.
 */
export const revokeToken = defineOperation({
  name: 'oauth.revoke',
  access: access.public,
  async run(ctx, input: z.output<typeof RevocationForm>): Promise<Record<string, never>> {
    const tokenHash = hashSecret(input.token);
    const row = await store.findToken(ctx.db, tokenHash);
    if (!row) return {};
    if (input.client_id !== undefined && input.client_id !== row.client_id) throw new OAuthError('unauthorized_client', 'This token was issued to another client');
    if (row.kind === 'refresh') await store.deleteFamily(ctx.db, row.family_id);
    else await store.deleteToken(ctx.db, tokenHash);
    return {};
  },
});
