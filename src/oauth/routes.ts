import { z } from 'zod';
import type { Operation } from '../core/operation.ts';
import { DeletedResponse } from '../core/schemas.ts';
import { defineRoute, type PageResult, type Route } from '../http/route.ts';
import { apiBasePath } from '../http/paths.ts';
import { pagesBasePath } from '../auth/pages.ts';
import { registerClient } from './clients.ts';
import { answerConsent, authorize } from './consent.ts';
import { decideDeviceRequest, showDeviceRequest, startDeviceAuthorization } from './device.ts';
import { authorizationServerMetadata, protectedResourceMetadata } from './discovery.ts';
import { ForwardedQuery, forwardAuthorization } from './fallbacks.ts';
import { noStore, oauthJsonFailure } from './errors.ts';
import { adminRevokeGrant, listGrants, listOwnGrants, revokeOwnGrant } from './grants.ts';
import { authorizePage, consentAnswered, devicePage, pageFailure } from './pages.ts';
import { revokeToken } from './revoke.ts';
import {
  AuthorizationServerDocument,
  AuthorizeQuery,
  ConsentForm,
  DeviceCodeForm,
  DeviceCodeResponse,
  DeviceForm,
  DevicePageQuery,
  GrantIdParams,
  GrantListQuery,
  GrantListResponse,
  ProtectedResourceDocument,
  RegistrationBody,
  RegistrationResponse,
  RevocationForm,
  TokenForm,
  TokenResponse,
} from './schemas.ts';
import { exchangeToken } from './token.ts';
import { oauthPaths } from './urls.ts';

const tag = 'OAuth';
const noStoreJson = { kind: 'json' as const, cacheControl: noStore['cache-control'] };

/** The OAuth endpoints under the API (RFC 6749, 7009, 7591, 8628), answering errors as their RFCs do. */
const tokenRoute = (path: string) =>
  defineRoute({
    method: 'post',
    path,
    tag,
    summary: 'Token endpoint: authorization_code (PKCE), refresh_token (rotating) and the device_code grant',
    operation: exchangeToken,
    body: { form: TokenForm },
    result: { ...noStoreJson, schema: TokenResponse },
    failure: oauthJsonFailure(),
  });

const registrationRoute = (path: string) =>
  defineRoute({
    method: 'post',
    path,
    tag,
    summary: 'Dynamic client registration (RFC 7591); clients are public (token_endpoint_auth_method none)',
    operation: registerClient,
    body: RegistrationBody,
    result: { ...noStoreJson, schema: RegistrationResponse, status: 201 },
    failure: oauthJsonFailure('invalid_client_metadata'),
  });

export const oauthApiRoutes: Route[] = [
  tokenRoute('/oauth/token'),
  defineRoute({
    method: 'post',
    path: '/oauth/device/code',
    tag,
    summary: 'Device authorization (RFC 8628): a device code to poll with and a user code to approve',
    operation: startDeviceAuthorization,
    body: { form: DeviceCodeForm },
    result: { ...noStoreJson, schema: DeviceCodeResponse },
    failure: oauthJsonFailure(),
  }),
  registrationRoute('/oauth/register'),
  defineRoute({
    method: 'post',
    path: '/oauth/revoke',
    tag,
    summary: 'Token revocation (RFC 7009): a refresh token revokes its whole family',
    operation: revokeToken,
    body: { form: RevocationForm },
    result: { ...noStoreJson, schema: z.object({}) },
    failure: oauthJsonFailure(),
  }),
  defineRoute({ method: 'get', path: '/auth/grants', tag, summary: "The caller's connected apps (OAuth grants)", operation: listOwnGrants, response: GrantListResponse }),
  defineRoute({ method: 'delete', path: '/auth/grants/:id', tag, summary: 'Disconnect one of the caller\'s apps: its tokens stop working at once', operation: revokeOwnGrant, params: GrantIdParams, response: DeletedResponse }),
  defineRoute({ method: 'get', path: '/admin/grants', tag, summary: "Everyone's connected apps, or one user's", operation: listGrants, query: GrantListQuery, response: GrantListResponse }),
  defineRoute({ method: 'delete', path: '/admin/grants/:id', tag, summary: "Disconnect anyone's app", operation: adminRevokeGrant, params: GrantIdParams, response: DeletedResponse }),
];

const relative = (path: string, base: string) => path.slice(base.length);

/**
 * A browser step of OAuth under /_cms: a page or a redirect; a failure is a page, or the way to sign
 * in. GET steps read the query, POST steps a form.
 */
function oauthPage<I, O>(path: string, summary: string, operation: Operation<I, O>, respond: (output: O) => PageResult | Promise<PageResult>, parts: { query: z.ZodType<I> } | { form: z.ZodType<I> }): Route {
  const common = { path: relative(path, pagesBasePath), tag, summary, operation, result: { kind: 'page' as const, respond }, failure: pageFailure };
  return 'query' in parts
    ? defineRoute({ ...common, method: 'get', query: parts.query, input: ({ query }) => query })
    : defineRoute({ ...common, method: 'post', body: { form: parts.form }, input: ({ body }) => body });
}

/** The consent and device pages, mounted under /_cms like the sign-in pages. */
export const oauthPageRoutes: Route[] = [
  oauthPage(oauthPaths.authorize, 'Authorization endpoint: the consent page, or straight back to the app when already approved', authorize, authorizePage, { query: AuthorizeQuery }),
  oauthPage(oauthPaths.consent, "The consent page's answer", answerConsent, consentAnswered, { form: ConsentForm }),
  oauthPage(oauthPaths.device, 'Device page: enter the code a device shows, then approve', showDeviceRequest, devicePage, { query: DevicePageQuery }),
  oauthPage(oauthPaths.device, "The device page's answer", decideDeviceRequest, devicePage, { form: DeviceForm }),
];

/** The discovery documents, each at the path the contract names and at the one RFC 8414/9728 derive. */
const discovery = <O>(path: string, operation: Operation<unknown, O>, schema: z.ZodType) =>
  defineRoute({ method: 'get', path, tag, summary: 'OAuth discovery document', operation, result: { kind: 'json', schema, cacheControl: 'public, max-age=300' } });

export const discoveryRoutes: Route[] = [
  discovery('/.well-known/oauth-protected-resource', protectedResourceMetadata, ProtectedResourceDocument),
  discovery(`/.well-known/oauth-protected-resource${oauthPaths.mcp}`, protectedResourceMetadata, ProtectedResourceDocument),
  discovery(`${pagesBasePath}/.well-known/oauth-authorization-server`, authorizationServerMetadata, AuthorizationServerDocument),
  discovery(`/.well-known/oauth-authorization-server${pagesBasePath}`, authorizationServerMetadata, AuthorizationServerDocument),
  // Where MCP 2025-03-26 clients look (at the root of the MCP URL's origin), whatever the issuer's path.
  discovery('/.well-known/oauth-authorization-server', authorizationServerMetadata, AuthorizationServerDocument),
];

/**
 * The endpoints MCP 2025-03-26 clients fall back to, at the root, when they find no metadata: the
 * browser is sent on to the authorization endpoint; token and registration are served right there,
 * since a redirect of a POST is one more thing such clients may not follow with its body.
 */
export const oauthRootFallbackRoutes: Route[] = [
  defineRoute({
    method: 'get',
    path: '/authorize',
    tag,
    summary: 'Authorization endpoint at the root (MCP 2025-03-26 fallback): on to /_cms/oauth/authorize',
    operation: forwardAuthorization,
    query: ForwardedQuery,
    result: { kind: 'redirect', location: (output) => output.location, status: 302 },
    failure: pageFailure,
  }),
  tokenRoute('/token'),
  registrationRoute('/register'),
];

/** Paths browser-based clients (the MCP Inspector) call from other origins without credentials: CORS open. */
export const openCorsPaths = [
  ...discoveryRoutes.map((route) => route.path),
  ...oauthRootFallbackRoutes.map((route) => route.path),
  ...oauthApiRoutes.filter((route) => route.path.startsWith('/oauth/')).map((route) => apiBasePath + route.path),
];
