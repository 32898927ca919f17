import { z } from 'zod';
import { access, defineOperation } from '../core/operation.ts';
import { oauthPaths } from './urls.ts';

/** The query of an authorization request as it came, passed on untouched (the real endpoint checks it). */
export const ForwardedQuery = z.record(z.string(), z.string().max(4096));

/**
 * `GET /authorize` at the server's root, where MCP 2025-03-26 clients without metadata look for it
 * (their "authorization base URL" is the MCP URL without its path): the browser goes on to Folio's
 * authorization endpoint with the same request.
 */
export const forwardAuthorization = defineOperation({
  name: 'oauth.authorize.fallback',
  access: access.public,
  async run(ctx, input: z.output<typeof ForwardedQuery>): Promise<{ location: string }> {
    return { location: `${ctx.baseUrl}${oauthPaths.authorize}?${new URLSearchParams(input).toString()}` };
  },
});
