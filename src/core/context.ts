import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { EntryChangeListener } from '../content/changes.ts';
import type { Db } from '../db/connection.ts';
import type { MediaStorage } from '../media/storage/types.ts';
import type { Clock } from './clock.ts';
import type { Scope } from './roles.ts';
import type { Mailer } from '../auth/mail.ts';
import type { PluginHost } from '../plugins/host.ts';

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

/** Everything an operation may touch, passed explicitly so tests and adapters choose each part. */
export interface Context {
  db: Db;
  clock: Clock;
  config: Config;
  log: Logger;
  principal: Principal | null;
  /** Told of every entry change inside its transaction (content/write.ts); fixed when the process starts. */
  entryListeners: readonly EntryChangeListener[];
  /** Where media bytes live (local disk or S3), opened once per process. */
  storage: MediaStorage;
  /** Folio's own absolute base URL for links it hands out: `PUBLIC_URL`, else the request's origin. */
  baseUrl: string;
  /**
   * The client's network address as TRUST_PROXY says to read it (the socket's, or the forwarded one);
   * undefined outside a request, or when the request came without a socket (in-process tests).
   */
  clientAddress?: string;
  /** How mail goes out (auth/mail.ts); absent outside the server, where one is made from the config. */
  mailer?: Mailer;
  /** The plugins this process loaded (plugins/host.ts), whose hooks the operations call; absent: none. */
  plugins?: PluginHost;
}
