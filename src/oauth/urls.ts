import { apiBasePath } from '../http/paths.ts';
import { pagesBasePath } from '../auth/pages.ts';
import { OAuthError } from './errors.ts';

/**
 * Where OAuth lives (DECISIONS §1, mcp.md §4). `baseUrl` is the operation context's: PUBLIC_URL, else
 * the request's origin, so the documents, the issuer and the resource always agree byte for byte.
 */
export const oauthPaths = {
  authorize: `${pagesBasePath}/oauth/authorize`,
  consent: `${pagesBasePath}/oauth/consent`,
  device: `${pagesBasePath}/oauth/device`,
  token: `${apiBasePath}/oauth/token`,
  deviceCode: `${apiBasePath}/oauth/device/code`,
  register: `${apiBasePath}/oauth/register`,
  revoke: `${apiBasePath}/oauth/revoke`,
  mcp: `${apiBasePath}/mcp`,
};

export function issuerOf(baseUrl: string): string {
  return `${baseUrl}${pagesBasePath}`;
}

/** The resources (RFC 8707) a token may be bound to: the MCP endpoint (the default) or the REST API. */
export type Audience = 'mcp' | 'api';

export function resourceUrl(baseUrl: string, audience: Audience): string {
  return `${baseUrl}${audience === 'mcp' ? oauthPaths.mcp : apiBasePath}`;
}

/**
 * A resource URL as it is compared (RFC 3986 §6.2.2-6.2.3): scheme and host in lower case, no default
 * port, no trailing `/`. Undefined when it cannot name a resource at all (RFC 8707 §2: absolute, no fragment).
 */
function comparableResource(resource: string): string | undefined {
  const url = URL.parse(resource);
  if (url === null || resource.includes('#')) return undefined;
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}${url.search}`;
}

/** The audience a `resource` parameter names, compared after normalising; `invalid_target` for any other. */
export function audienceOf(baseUrl: string, resource: string | undefined): Audience {
  if (resource === undefined || resource === '') return 'mcp';
  const asked = comparableResource(resource);
  for (const audience of ['mcp', 'api'] as const) if (asked !== undefined && asked === comparableResource(resourceUrl(baseUrl, audience))) return audience;
  throw new OAuthError('invalid_target', `Unknown resource ${resource}: this server serves ${resourceUrl(baseUrl, 'mcp')} and ${resourceUrl(baseUrl, 'api')}`);
}

/** The audience a request to `path` needs: the MCP endpoint's, or the REST API's for everything else. */
export function audienceForPath(path: string): Audience {
  return path === oauthPaths.mcp ? 'mcp' : 'api';
}
