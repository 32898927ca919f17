import type { z } from 'zod';
import type { UserPrincipal } from '../core/context.ts';
import { unauthorized } from '../core/errors.ts';
import { access, defineOperation, type AuthorizedContext } from '../core/operation.ts';
import type { Scope } from '../core/roles.ts';
import type { Db } from '../db/connection.ts';
import { inTransaction } from '../db/dialect.ts';
import { hashSecret } from '../auth/secrets.ts';
import { parseScopes } from '../auth/store.ts';
import { findClient, type OAuthClient } from './clients.ts';
import { OAuthError } from './errors.ts';
import { recordConsent } from './grants.ts';
import { isLoopbackRedirect, redirectUriMatches } from './redirect-uris.ts';
import type { AuthorizeQuery, ConsentForm } from './schemas.ts';
import { clampToRole, includesAll, joinScopes, requestedScopes } from './scopes.ts';
import { randomSecret } from './secrets.ts';
import * as store from './store.ts';
import { audienceOf, issuerOf, type Audience } from './urls.ts';

/** An authorization code is exchanged at once; five minutes leave room for a slow client. */
const codeLifetimeMs = 300_000;
/** The consent page may stay open a while before the person decides. */
const consentLifetimeMs = 900_000;

/** The consent and device pages act only for a browser session: a token cannot approve a client. */
export function signedInUser(ctx: AuthorizedContext): UserPrincipal {
  if (ctx.actor?.credential.type !== 'session') throw unauthorized();
  return ctx.actor;
}

/** A validated authorization request, kept while the person decides. */
interface AuthorizationRequest {
  redirectUri: string;
  /** The redirect_uri parameter as given ('' when omitted): the token request must repeat it (RFC 6749 §4.1.3). */
  givenRedirectUri: string;
  state?: string;
  codeChallenge: string;
  scopes: Scope[];
  audience: Audience;
}

/** Where the browser goes next: back to the client (with a code or an error), or to the consent page. */
export type AuthorizeOutcome =
  | { kind: 'redirect'; url: string }
  | {
      kind: 'consent';
      requestId: string;
      clientName: string;
      /** Where a metadata document client's description comes from: its name is only its own word. */
      clientHost?: string;
      redirectHost: string;
      redirectUri: string;
      /** The answer goes to this computer, where any program may be listening (MCP's local impersonation risk). */
      localRedirect: boolean;
      scopes: Scope[];
      refused: Scope[];
    };

const challengePattern = /^[A-Za-z0-9_-]{43}$/;

/**
 * `GET /_cms/oauth/authorize` (RFC 6749 §4.1.1, PKCE S256 only). Until the client and its redirect
 * URI are known good, a failure is shown as a page (never a redirect to an unchecked URI); after,
 * it goes back to the client with `state` and `iss` (RFC 9207), as a success does.
 */
export const authorize = defineOperation({
  name: 'oauth.authorize',
  access: access.ownAccount,
  async run(ctx, input: z.output<typeof AuthorizeQuery>): Promise<AuthorizeOutcome> {
    const user = signedInUser(ctx);
    const client = await findClient(ctx, input.client_id);
    const redirectUri = chosenRedirectUri(client, input.redirect_uri);
    const back = (params: Record<string, string>) => ({ kind: 'redirect' as const, url: clientRedirect(ctx.baseUrl, redirectUri, input.state, params) });
    try {
      if (input.response_type !== 'code') throw new OAuthError('unsupported_response_type', 'response_type must be "code"');
      if (input.code_challenge_method !== 'S256') throw new OAuthError('invalid_request', 'PKCE is required with code_challenge_method S256 ("plain" is refused)');
      if (!challengePattern.test(input.code_challenge ?? '')) throw new OAuthError('invalid_request', 'code_challenge must be the 43-character base64url SHA-256 of the code verifier');
      const asked = requestedScopes(input.scope, user.role);
      const audience = audienceOf(ctx.baseUrl, input.resource);
      const scopes = clampToRole(asked, user.role);
      if (scopes.length === 0) throw new OAuthError('invalid_scope', 'None of the requested scopes is allowed for your role');
      const request: AuthorizationRequest = { redirectUri, givenRedirectUri: input.redirect_uri ?? '', state: input.state, codeChallenge: input.code_challenge!, scopes, audience };
      const grant = await store.findGrant(ctx.db, user.userId, client.id);
      if (grant && includesAll(parseScopes(grant.scopes), scopes) && mayAnswerWithoutAsking(client, redirectUri)) return back({ code: await issueCode(ctx.db, ctx.clock.now(), grant.id, request) });
      const requestId = randomSecret();
      await store.insertConsentRequest(ctx.db, {
        id_hash: hashSecret(requestId),
        user_id: user.userId,
        client_id: client.id,
        request: JSON.stringify(request),
        expires_at: new Date(ctx.clock.now().getTime() + consentLifetimeMs).toISOString(),
      });
      return {
        kind: 'consent',
        requestId,
        clientName: client.name,
        ...(client.documentHost !== undefined ? { clientHost: client.documentHost } : {}),
        redirectHost: redirectHost(redirectUri),
        redirectUri,
        localRedirect: isLoopbackRedirect(new URL(redirectUri)),
        scopes,
        refused: asked.filter((scope) => !scopes.includes(scope)),
      };
    } catch (error) {
      if (error instanceof OAuthError) return back({ error: error.error, error_description: error.message });
      throw error;
    }
  },
});

/**
 * `POST /_cms/oauth/consent`: the person's answer. The form carries the request's random id, which
 * only this user's consent page holds (and the session's Origin check runs first): a forged post
 * grants nothing. Each request is answered once.
 */
export const answerConsent = defineOperation({
  name: 'oauth.consent',
  access: access.ownAccount,
  async run(ctx, input: z.output<typeof ConsentForm>): Promise<AuthorizeOutcome> {
    const user = signedInUser(ctx);
    const taken = await store.takeConsentRequest(ctx.db, hashSecret(input.request), user.userId);
    if (!taken || taken.expires_at <= ctx.clock.now().toISOString()) {
      throw new OAuthError('invalid_request', 'This consent request is unknown, expired or already answered: start again from the app');
    }
    const request = JSON.parse(taken.request) as AuthorizationRequest;
    const back = (params: Record<string, string>) => ({ kind: 'redirect' as const, url: clientRedirect(ctx.baseUrl, request.redirectUri, request.state, params) });
    if (input.decision === 'deny') return back({ error: 'access_denied', error_description: 'The user denied the request' });
    const now = ctx.clock.now();
    const code = await inTransaction(ctx.db, async (db) => issueCode(db, now, await recordConsent(db, user.userId, taken.client_id, request.scopes, now), request));
    return back({ code });
  },
});

async function issueCode(db: Db, now: Date, grantId: string, request: AuthorizationRequest): Promise<string> {
  const code = randomSecret();
  await store.insertCode(db, {
    code_hash: hashSecret(code),
    grant_id: grantId,
    redirect_uri: request.givenRedirectUri,
    code_challenge: request.codeChallenge,
    scopes: joinScopes(request.scopes),
    audience: request.audience,
    expires_at: new Date(now.getTime() + codeLifetimeMs).toISOString(),
    family_id: null,
  });
  return code;
}

/**
 * Whether a remembered grant may answer without asking: only when the answer can go nowhere but where
 * it went when the person approved, to someone who is surely that client. So the client has one
 * redirect URI, this one byte for byte (grants do not record which URI was approved, so a client with
 * several is asked every time), and it is https: a native app's loopback or private-use scheme can be
 * taken by any program on the computer, so an earlier approval proves nothing of who asks now
 * (RFC 8252 §8.6, MCP's local impersonation risk). Decisions/0036.
 */
function mayAnswerWithoutAsking(client: OAuthClient, redirectUri: string): boolean {
  return client.redirectUris.length === 1 && client.redirectUris[0] === redirectUri && redirectUri.startsWith('https://');
}

/** The redirect URI asked for, if registered (loopback: any port); with none asked, the client's only one. */
function chosenRedirectUri(client: OAuthClient, requested: string | undefined): string {
  if (client.redirectUris.length === 0) throw new OAuthError('unauthorized_client', 'This client registered no redirect URI: it can only use the device flow');
  if (requested === undefined) {
    if (client.redirectUris.length === 1) return client.redirectUris[0]!;
    throw new OAuthError('invalid_request', 'redirect_uri is required: the client registered several');
  }
  if (!redirectUriMatches(client.redirectUris, requested)) throw new OAuthError('invalid_request', `redirect_uri ${requested} is not registered for this client`);
  return requested;
}

/** The redirect URI with the response's parameters, `state` and `iss` added (RFC 9207). */
function clientRedirect(baseUrl: string, redirectUri: string, state: string | undefined, params: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (state !== undefined) url.searchParams.set('state', state);
  url.searchParams.set('iss', issuerOf(baseUrl));
  return url.href;
}

/** What the person is told the app will receive the answer at: a host, or a native app's scheme. */
function redirectHost(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.host === '' ? `${url.protocol}//` : url.host;
}
