import type { z } from 'zod';
import { access, defineOperation } from '../core/operation.ts';
import { hashSecret } from '../auth/secrets.ts';
import type { RevocationForm } from './schemas.ts';
import * as store from './store.ts';

/**
 * RFC 7009: a refresh token takes its whole family with it, an access token only itself. The answer
 * is the same whether or not the token was known (§2.2), and a token of another client is left alone.
 */
export const revokeToken = defineOperation({
  name: 'oauth.revoke',
  access: access.public,
  async run(ctx, input: z.output<typeof RevocationForm>): Promise<Record<string, never>> {
    const tokenHash = hashSecret(input.token);
    const row = await store.findToken(ctx.db, tokenHash);
    if (!row || (input.client_id !== undefined && input.client_id !== row.client_id)) return {};
    if (row.kind === 'refresh') await store.deleteFamily(ctx.db, row.family_id);
    else await store.deleteToken(ctx.db, tokenHash);
    return {};
  },
});
