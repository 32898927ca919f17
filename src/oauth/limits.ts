import type { RateLimit } from '../auth/rate-limit.ts';

/** OAuth's rate limits (DECISIONS §6), per client address, read and tuned together. */
export const oauthLimits = {
  /** Every grant, polling included (a device polls every 5 seconds: 12 a minute). */
  token: { name: 'oauth-token', limit: 60, windowMs: 60_000 },
  register: { name: 'oauth-register', limit: 20, windowMs: 60 * 60_000 },
  deviceCode: { name: 'oauth-device-code', limit: 20, windowMs: 15 * 60_000 },
  /** User codes typed on the device page (a guessed code would be tried here), per user. */
  deviceVerify: { name: 'oauth-device-verify', limit: 20, windowMs: 15 * 60_000 },
} as const satisfies Record<string, RateLimit>;

