/**
 * How redirects compare addresses (docs/decisions/0057). A path is kept in one canonical form, so
 * that `/Caf%C3%A9/`, `/Café` and `https://old.example/Café/?utm=x` all look up the same redirect:
 * no host, a leading `/`, no query or fragment (a lookup ignores them; a `from` may not carry one),
 * no empty segments nor trailing `/` (WordPress ends its permalinks with one, Folio's URL patterns
 * do not), each segment percent-encoded the one way `encodeURIComponent` does it.
 */

const maxLength = 2000;
const httpUrl = /^https?:\/\//i;
const anyScheme = /^[a-z][a-z0-9+.-]*:/i;

/** Control characters and backslashes, which no address should hold (browsers read `\` as `/`). */
function hasForbiddenCharacters(text: string): boolean {
  return [...text].some((char) => char === '\\' || char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);
}

/** A segment in canonical form; undefined when its percent-encoding is broken. */
function canonicalSegment(segment: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  return hasForbiddenCharacters(decoded) ? undefined : encodeURIComponent(decoded);
}

/** The path of an address on the site, without what follows it (query, fragment). */
function pathPart(address: string): string | undefined {
  if (httpUrl.test(address)) {
    try {
      return new URL(address).pathname;
    } catch {
      return undefined;
    }
  }
  if (anyScheme.test(address) || address.startsWith('//')) return undefined;
  const end = address.search(/[?#]/);
  const path = end === -1 ? address : address.slice(0, end);
  return path.startsWith('/') ? path : `/${path}`;
}

/** The canonical form of a site path or http(s) URL; undefined when it is none. */
export function normalizePath(address: string): string | undefined {
  if (address.length === 0 || address.length > maxLength || hasForbiddenCharacters(address)) return undefined;
  const path = pathPart(address);
  if (path === undefined) return undefined;
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '') continue;
    const canonical = canonicalSegment(segment);
    if (canonical === undefined) return undefined;
    segments.push(canonical);
  }
  return `/${segments.join('/')}`;
}

/** What is wrong with a redirect's `from`, or undefined when it is a path (or URL) of the site. */
export function fromProblem(from: string): string | undefined {
  if (/[?#]/.test(from)) return 'Must not carry a query string or fragment: lookups ignore them';
  return normalizePath(from) === undefined ? 'Must be a path on the site, e.g. /old-post/ (or an http(s) URL whose path is taken)' : undefined;
}

/** Where a redirect leads: a path on the site (chains follow it) or another site's URL. */
export interface Target {
  to: string;
  /** The canonical path when `to` is on the site; null for an absolute URL. */
  path: string | null;
}

/** A redirect's `to` read: a path starting with `/`, or an absolute http(s) URL; undefined for anything else. */
export function parseTarget(to: string): Target | undefined {
  if (to.length === 0 || to.length > maxLength || hasForbiddenCharacters(to) || /\s/.test(to)) return undefined;
  if (httpUrl.test(to)) {
    try {
      return new URL(to).host === '' ? undefined : { to, path: null };
    } catch {
      return undefined;
    }
  }
  if (!to.startsWith('/') || to.startsWith('//')) return undefined;
  const path = normalizePath(to);
  return path === undefined ? undefined : { to, path };
}
