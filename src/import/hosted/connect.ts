import { hashSecret } from '../../auth/secrets.ts';
import { AppError, validationError } from '../../core/errors.ts';
import type { AuthorizedContext } from '../../core/operation.ts';
import { apiBasePath } from '../../http/paths.ts';
import { OutgoingError, outgoingBuffer } from '../../net/outgoing.ts';
import { randomSecret } from '../../oauth/secrets.ts';
import { analyzeSite, type AnalysisView } from '../analysis.ts';
import * as store from '../store.ts';
import { AccessToken } from '../schemas.ts';
import { sourceName } from './api.ts';

/**
 * The OAuth client side of `legacy-hosted` (decisions/0028): the admin is sent to WordPress.com's
 * authorization page with the deployment's application (WPCOM_CLIENT_ID, WPCOM_CLIENT_SECRET) and a
 * state that only they can bring back, once, within ten minutes; the callback trades the code for
 * the site's access token and analyses the site with it.
 */

/** How long an admin has between connect and callback. */
const connectionLifetimeMs = 10 * 60_000;

export const callbackPath = '/import/legacy/callback';

function credentials(ctx: AuthorizedContext): { clientId: string; clientSecret: string } {
  const { clientId, clientSecret } = ctx.config.import.wpcom;
  if (clientId === undefined || clientSecret === undefined) {
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      `${sourceName}: connecting to WordPress.com needs this deployment's application credentials, WPCOM_CLIENT_ID and WPCOM_CLIENT_SECRET, which are not configured; an access token got elsewhere can be given to POST /import/legacy/analyze`,
      { source: sourceName, missing: ['WPCOM_CLIENT_ID', 'WPCOM_CLIENT_SECRET'] },
    );
  }
  return { clientId, clientSecret };
}

function actingUser(ctx: AuthorizedContext): string {
  if (!ctx.actor) throw new AppError('FORBIDDEN', `${sourceName}: connecting a site needs a signed-in admin, whom the connection is bound to`);
  return ctx.actor.userId;
}

export interface ConnectAnswer {
  authorizeUrl: string;
  redirectUri: string;
  expiresAt: string;
}

/** Where to send the admin: WordPress.com's authorization page for the site, with a fresh state bound to them. */
export async function startConnection(ctx: AuthorizedContext, siteUrl: string): Promise<ConnectAnswer> {
  const { clientId } = credentials(ctx);
  const userId = actingUser(ctx);
  const state = randomSecret();
  const redirectUri = `${ctx.baseUrl}${apiBasePath}${callbackPath}`;
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + connectionLifetimeMs).toISOString();
  await store.insertConnection(ctx.db, { state_hash: hashSecret(state), user_id: userId, site_url: siteUrl, redirect_uri: redirectUri, created_at: now.toISOString(), expires_at: expiresAt });
  const authorize = new URL(`${ctx.config.import.wpcom.apiUrl}/oauth2/authorize`);
  // No scope: WordPress.com then grants a token for the one site chosen (`blog`), all an import reads.
  for (const [name, value] of Object.entries({ client_id: clientId, redirect_uri: redirectUri, response_type: 'code', blog: siteUrl, state })) authorize.searchParams.set(name, value);
  return { authorizeUrl: authorize.href, redirectUri, expiresAt };
}

export interface CallbackInput {
  state: string;
  code?: string | undefined;
  error?: string | undefined;
  error_description?: string | undefined;
}

interface TokenAnswer {
  access_token?: unknown;
  blog_url?: unknown;
  error?: unknown;
  error_description?: unknown;
}

/** WordPress.com sent the admin back: the state is taken (used once), the code traded for a token, the site analysed. */
export async function finishConnection(ctx: AuthorizedContext, input: CallbackInput): Promise<AnalysisView> {
  const { clientId, clientSecret } = credentials(ctx);
  const connection = await store.takeConnection(ctx.db, hashSecret(input.state), actingUser(ctx));
  if (!connection || connection.expires_at <= ctx.clock.now().toISOString()) {
    throw validationError([{ path: 'state', message: 'Unknown, already used, expired, or started by another admin: connect the site again' }], `${sourceName}: the connection's state is unknown, already used, expired, or another admin's; connect the site again`);
  }
  if (input.error !== undefined) {
    const reason = `${input.error}${input.error_description ? `: ${input.error_description}` : ''}`;
    throw validationError([{ path: 'error', message: `WordPress.com did not authorize the connection (${reason})` }], `${sourceName}: WordPress.com did not authorize the connection (${reason})`);
  }
  if (input.code === undefined || input.code === '') throw validationError([{ path: 'code', message: 'Required: the authorization code WordPress.com sends back' }]);
  const form = new URLSearchParams({ client_id: clientId, client_secret: clientSecret, redirect_uri: connection.redirect_uri, code: input.code, grant_type: 'authorization_code' });
  let answer: TokenAnswer;
  try {
    const response = await outgoingBuffer(`${ctx.config.import.wpcom.apiUrl}/oauth2/token`, {
      method: 'POST',
      body: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      timeoutMs: ctx.config.import.wpcom.timeoutMs,
      maxBytes: 64 * 1024,
      allowPrivate: ctx.config.outgoingAllowPrivate,
    });
    answer = parseTokenAnswer(response.body);
    if (response.status !== 200 || typeof answer.access_token !== 'string' || answer.access_token === '') {
      if (response.status >= 500) throw new AppError('SERVICE_UNAVAILABLE', `${sourceName}: WordPress.com could not trade the authorization code (it answered ${response.status}); connect again`, { source: sourceName });
      const reason = `${String(answer.error ?? 'invalid_grant')}${typeof answer.error_description === 'string' ? `: ${answer.error_description}` : ''}`;
      throw validationError([{ path: 'code', message: `WordPress.com refused the authorization code (${reason})` }], `${sourceName}: WordPress.com refused the authorization code (${reason}); connect the site again`);
    }
  } catch (error) {
    if (!(error instanceof OutgoingError)) throw error;
    // The code is spent or soon expires: trying the trade again could not help.
    throw new AppError('SERVICE_UNAVAILABLE', `${sourceName}: WordPress.com's token endpoint did not answer (${error.message}); connect again`, { source: sourceName });
  }
  if (!AccessToken.safeParse(answer.access_token).success) {
    throw new AppError('SERVICE_UNAVAILABLE', `${sourceName}: WordPress.com answered with an access token that cannot go in an HTTP header; connect again`, { source: sourceName });
  }
  const url = typeof answer.blog_url === 'string' && answer.blog_url !== '' ? answer.blog_url : connection.site_url;
  return analyzeSite(ctx, sourceName, { type: 'oauth', url, accessToken: answer.access_token as string });
}

function parseTokenAnswer(body: Buffer): TokenAnswer {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return parsed !== null && typeof parsed === 'object' ? (parsed as TokenAnswer) : {};
  } catch {
    return {};
  }
}
