import type { Clock } from '../core/clock.ts';
import type { UserPrincipal } from '../core/context.ts';
import { AppError } from '../core/errors.ts';
import type { Db } from '../db/connection.ts';

/** What a resolver may read of a request. */
export interface CredentialRequest {
  method: string;
  url: string;
  header(name: string): string | undefined;
  db: Db;
  clock: Clock;
}

/**
 * One way of proving who is calling: bearer tokens today; session cookies and OAuth access tokens
 * plug in the same way. `resolve` answers null when the request carries none of its credential, and
 * throws the one 401 when it carries a bad one.
 */
export interface CredentialResolver {
  name: string;
  /**
   * A browser sends this credential by itself with any request to the site (a cookie), so a request
   * from another site's page would carry it too: such requests must pass the CSRF origin check.
   */
  ambient: boolean;
  resolve(request: CredentialRequest): Promise<UserPrincipal | null>;
}

/** Whether a request that changes something comes from a page Folio trusts (its own origin, CORS_ORIGINS). */
export type OriginCheck = (request: CredentialRequest) => boolean;

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The first resolver whose credential the request carries decides; none: an anonymous caller (null). */
export async function resolveCredentials(resolvers: readonly CredentialResolver[], request: CredentialRequest, originAllowed: OriginCheck): Promise<UserPrincipal | null> {
  for (const resolver of resolvers) {
    const principal = await resolver.resolve(request);
    if (!principal) continue;
    if (resolver.ambient && !safeMethods.has(request.method) && !originAllowed(request)) {
      throw new AppError('FORBIDDEN', 'Cross-site request refused: its Origin is not allowed to use a session', { reason: 'origin' });
    }
    return principal;
  }
  return null;
}
