export type HeaderList = readonly (readonly [string, string])[];

/**
 * Security headers for every response. Most of hono/secure-headers' legacy set means nothing for
 * JSON; Strict-Transport-Security is sent only when the public URL is https (browsers ignore it over http).
 * They are set before the handler runs, so they are part of the response when it is built: setting
 * them on the finished response, as hono/secure-headers does, makes @hono/node-server rebuild it off
 * its fast path (a third of the throughput on small JSON replies).
 */
export function securityHeaders(https: boolean): HeaderList {
  return [
    ['X-Content-Type-Options', 'nosniff'],
    ['X-Frame-Options', 'DENY'],
    ['Referrer-Policy', 'no-referrer'],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
    ...(https ? ([['Strict-Transport-Security', 'max-age=15552000; includeSubDomains']] as const) : []),
  ];
}

/** API answers are per caller and never cached; a route may set its own (the docs assets do). */
export const apiHeaders: HeaderList = [['Cache-Control', 'private, no-store']];
