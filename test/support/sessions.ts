import { sessionCookieName, startSession } from '../../src/auth/sessions.ts';
import { findUserById } from '../../src/users/store.ts';
import type { TestApp } from './harness.ts';

/** A Cookie header holding a fresh session of the user, as a sign-in would give it. */
export async function sessionCookieFor(t: TestApp, userId: string): Promise<string> {
  const user = await findUserById(t.db, userId);
  if (!user) throw new Error(`no user ${userId}`);
  const { token } = await startSession(t.systemContext(), user, 'passkey');
  return `${sessionCookieName(t.config)}=${token}`;
}

/** The session cookie a response sets, as the browser would send it back (`name=value`); undefined if none. */
export function cookieFromResponse(headers: Headers): string | undefined {
  const setCookie = headers.getSetCookie().find((value) => /^(?:__Host-)?folio_session=/.test(value));
  return setCookie?.split(';')[0];
}
