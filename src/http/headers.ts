export type HeaderMap = Readonly<Record<string, string>>;

/**
 * Security headers for every response. Most of hono/secure-headers' legacy set means nothing for
 * JSON; Strict-Transport-Security is sent only when the public URL is https (browsers ignore it over http).
 */
export function securityHeaders(https: boolean): HeaderMap {
  return {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    ...(https ? { 'strict-transport-security': 'max-age=15552000; includeSubDomains' } : {}),
  };
}

/** API answers are per caller and never cached; a route may set its own (the docs assets do). */
export const apiHeaders: HeaderMap = { 'cache-control': 'private, no-store' };
