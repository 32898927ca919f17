import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/connection.ts';
import type { Clock } from './clock.ts';
import type { Scope } from './roles.ts';

/** Who is acting: a signed-in user (through a token or session), or the operator at the CLI. */
export type Principal = UserPrincipal | SystemPrincipal;

export interface UserPrincipal {
  kind: 'user';
  userId: string;
  email: string;
  name: string;
  role: number;
  /** The credential's scopes already cut to the user's current role. */
  scopes: Scope[];
  /** How the caller proved it: a personal access token, a browser session or an OAuth grant (by their ids). */
  credential: { type: 'token' | 'session' | 'oauth'; id: string };
}

/** A signed-in user as the operations see them, whichever credential proved it. */
export function userPrincipal(user: { userId: string; email: string; name: string; role: number }, scopes: Scope[], credential: UserPrincipal['credential']): UserPrincipal {
  return { kind: 'user', userId: user.userId, email: user.email, name: user.name, role: user.role, scopes, credential };
}

/** The CLI runs with the database's owner's authority: it is how the first admin comes to exist. */
export interface SystemPrincipal {
  kind: 'system';
}

export const systemPrincipal: SystemPrincipal = { kind: 'system' };

/**
 * The services a feature hangs on every context, each declared by the feature that owns it through
 * TypeScript's interface merging (as Hono's ContextVariableMap): `entryListeners`
 * (content/listeners.ts), `storage` (media/storage/types.ts), `mailer` (auth/mail.ts), `plugins`
 * (plugins/host.ts). The core so names no feature, and the compiler still checks that every place
 * that builds a context (app.ts, server.ts, cli/context.ts, the test harness) gives each one.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the features (see above)
export interface ContextServices {}

/** Everything an operation may touch, passed explicitly so tests and adapters choose each part. */
export interface Context extends ContextServices {
  db: Db;
  clock: Clock;
  config: Config;
  log: Logger;
  principal: Principal | null;
  /** Folio's own absolute base URL for links it hands out: `PUBLIC_URL`, else the request's origin. */
  baseUrl: string;
  /**
   * The client's network address as TRUST_PROXY says to read it (the socket's, or the forwarded one);
   * undefined outside a request, or when the request came without a socket (in-process tests).
   */
  clientAddress?: string;
}
