import { serve, type ServerType } from '@hono/node-server';
import pino from 'pino';
import { createApp } from '../../src/app.ts';
import type { Mailer } from '../../src/auth/mail.ts';
import { createTestApp, type TestApp } from './harness.ts';
import { freePort } from './ports.ts';
import { sessionCookieFor } from './sessions.ts';

export interface OAuthServer {
  t: TestApp;
  /** `http://<host>:<port>`, which is also PUBLIC_URL. */
  origin: string;
  issuer: string;
  mcpUrl: string;
  close(): Promise<void>;
}

/**
 * The real app on a socket with PUBLIC_URL set to it, as an OAuth client finds it. `hostName` is what
 * PUBLIC_URL names (`localhost` for browser tests: WebAuthn needs a name, not an address).
 */
export async function startOAuthServer(overrides: Record<string, string> = {}, hostName = '127.0.0.1', { mailer }: { mailer?: Mailer } = {}): Promise<OAuthServer> {
  const port = await freePort();
  const origin = `http://${hostName}:${port}`;
  const t = await createTestApp({ PUBLIC_URL: origin, ...overrides }, mailer ? { mailer } : {});
  const app = createApp({ config: t.config, db: t.db, storage: t.storage, log: pino({ level: 'silent' }), clock: t.clock, mailer });
  const server = await new Promise<ServerType>((resolve) => {
    const listening = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => resolve(listening));
  });
  return {
    t,
    origin,
    issuer: `${origin}/_cms`,
    mcpUrl: `${origin}/_cms/api/mcp`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      await t.close();
    },
  };
}

/** A user of the role signed in in a browser: the Cookie header a browser would send. */
export async function signedInUser(t: TestApp, role: number): Promise<{ userId: string; cookie: string; token: string }> {
  const { user, token } = await t.userWithToken(role, ['content:read']);
  return { userId: user.id, cookie: await sessionCookieFor(t, user.id), token };
}

/** The consent page's request id, or undefined when the response is not the consent page. */
export function consentRequestId(page: string): string | undefined {
  return /name="request" value="([^"]+)"/.exec(page)?.[1];
}

/**
 * Follows an authorization request as a signed-in person who answers the consent page (when it
 * shows) with `decision`: the URL the browser is finally sent to (the client's redirect URI).
 */
export async function authorizeInBrowser(server: OAuthServer, cookie: string, authorizationUrl: string, decision: 'approve' | 'deny' = 'approve'): Promise<URL> {
  const first = await fetch(authorizationUrl, { headers: { cookie }, redirect: 'manual' });
  if (first.status === 302) return new URL(first.headers.get('location')!);
  const page = await first.text();
  const request = consentRequestId(page);
  if (first.status !== 200 || request === undefined) throw new Error(`expected the consent page, got ${first.status}: ${page.slice(0, 500)}`);
  const answer = await fetch(`${server.origin}/_cms/oauth/consent`, {
    method: 'POST',
    headers: { cookie, origin: server.origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ request, decision }),
    redirect: 'manual',
  });
  if (answer.status !== 303) throw new Error(`expected 303 from the consent, got ${answer.status}: ${await answer.text()}`);
  return new URL(answer.headers.get('location')!);
}

/** A form POST as OAuth clients send them. */
export async function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text && /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text };
}
