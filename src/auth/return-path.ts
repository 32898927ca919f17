import { z } from 'zod';

/** The pages sign-in may send a browser back to: Folio's own, under this path. */
const pagesPrefix = '/_cms/';

/** Where a browser lands once signed in, when it came from nowhere in particular: the panel (decisions/0042). */
export const landingPath = '/_cms/admin/';

/** The sign-in page, which sends the browser on to `returnPath` once signed in. */
export function signInPath(returnPath: string): string {
  return `${pagesPrefix}sign-in?return=${encodeURIComponent(returnPath)}`;
}

/** Any origin will do: only whether a path stays on it matters. */
const probeOrigin = 'http://folio.invalid';

/**
 * Whether `value` may be where sign-in sends the browser on to (the page that sent it to sign in, an
 * OAuth consent): a path of Folio's own pages, which cannot leave the origin however a browser reads
 * it. The rule of the sign-in script (`afterSignIn` in pages/sign-in.js), kept on the server too
 * because a mailed link carries the value: no `//host` or `/\host`, no control characters or spaces,
 * and still under `/_cms/` once `..` segments are resolved.
 */
export function isSignInReturnPath(value: string): boolean {
  if (!value.startsWith(pagesPrefix) || /[\\\s\p{Cc}]/u.test(value)) return false;
  const resolved = new URL(value, probeOrigin);
  return resolved.origin === probeOrigin && resolved.pathname.startsWith(pagesPrefix);
}

/** The return path of a link someone followed: a bad one falls back to the landing page, as the sign-in script does. */
export function signInReturnOrLanding(value: string | undefined): string {
  return value !== undefined && isSignInReturnPath(value) ? value : landingPath;
}

/** A return path in a request: at most what a browser's address bar sensibly holds. */
export const SignInReturnSchema = z.string().max(4096);
