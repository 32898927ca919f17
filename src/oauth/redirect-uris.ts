import { isIP } from 'node:net';

/**
 * Redirect URIs (RFC 8252, OAuth 2.1 §2.3): https anywhere, http only on loopback, or a private-use
 * scheme of a native app (`cursor://…`, `vscode://…`). Never a fragment, never a script.
 */
const forbiddenSchemes = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:']);

export function isLoopbackRedirect(url: URL): boolean {
  return url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '[::1]' || (isIP(url.hostname) === 4 && url.hostname.startsWith('127.')));
}

/** Why `uri` cannot be a redirect URI, or undefined when it can. */
export function redirectUriProblem(uri: string): string | undefined {
  const url = URL.parse(uri);
  if (url === null) return `${uri} is not an absolute URI`;
  if (url.hash !== '' || uri.includes('#')) return `${uri} has a fragment`;
  if (forbiddenSchemes.has(url.protocol)) return `${uri} uses the scheme ${url.protocol}`;
  if (url.protocol === 'https:') return url.hostname === '' ? `${uri} names no host` : undefined;
  if (url.protocol === 'http:') return isLoopbackRedirect(url) ? undefined : `${uri}: http is allowed only on loopback (127.0.0.1, [::1], localhost)`;
  return undefined;
}

/**
 * Whether a requested redirect URI is one registered: exactly, except that a loopback one may use any
 * port (RFC 8252 §7.3: native apps listen on whatever port is free).
 */
export function redirectUriMatches(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const asked = URL.parse(requested);
  if (asked === null || !isLoopbackRedirect(asked)) return false;
  return registered.some((candidate) => {
    const known = URL.parse(candidate);
    return known !== null && isLoopbackRedirect(known) && known.hostname === asked.hostname && known.pathname === asked.pathname && known.search === asked.search;
  });
}
