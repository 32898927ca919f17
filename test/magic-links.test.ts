import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../src/auth/mail.ts';
import { api } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';
import { heldMailer } from './support/mail.ts';
import { cookieFromResponse } from './support/sessions.ts';
import { startSmtpSink, type SmtpSink } from './support/smtp.ts';

let sink: SmtpSink;
let t: TestApp;
let realMailer: ReturnType<typeof createMailer>;

beforeAll(async () => {
  sink = await startSmtpSink();
  const config = { SMTP_URL: sink.url, SMTP_FROM: 'Folio <folio@cms.example.com>', PUBLIC_URL: 'http://localhost:3000' };
  realMailer = createMailer({ smtp: { transport: sink.url, from: config.SMTP_FROM } }, pino({ level: 'silent' }));
  t = await createTestApp(config, { mailer: realMailer });
});
afterAll(async () => {
  realMailer.close();
  await t.close();
  await sink.close();
});

const send = (email: string, headers: Record<string, string> = {}) => t.request('POST', `${api}/auth/magic-link/send`, { body: { email }, headers });
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const verify = (token: string, headers: Record<string, string> = {}) => t.request('GET', `${api}/auth/magic-link/verify?token=${encodeURIComponent(token)}`, { headers });

describe('magic links by SMTP', () => {
  it('mails a link to a known address; following it starts a session and lands on the landing page', async () => {
    expect(expectSuccess(await send(t.admin.email.toUpperCase()))).toEqual({ success: true });
    const mail = await sink.next();
    expect(mail.to).toEqual([t.admin.email]);
    expect(mail.text).toContain('From: Folio <folio@cms.example.com>');
    expect(mail.link).toMatch(/^http:\/\/localhost:3000\/_cms\/sign-in\/link\?token=[\w-]{43}$/);
    const signedIn = await verify(tokenOf(mail.link));
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/_cms/admin/');
    const cookie = cookieFromResponse(signedIn.headers)!;
    expect(signedIn.headers.getSetCookie()[0]).toMatch(/; HttpOnly; SameSite=Lax$/);
    const me = expectSuccess(await t.request('GET', `${api}/auth/me`, { headers: { cookie } })).item;
    expect(me.id).toBe(t.admin.id);
    // The sign-in is what the people screen shows as their last (the clock is the test's).
    expect(me.lastSignInAt).toBe(t.clock.now().toISOString());
  });

  it('works once: a reused link is a 400 naming the token, and grants nothing', async () => {
    expectSuccess(await send(t.admin.email));
    const token = tokenOf((await sink.next()).link);
    expect((await verify(token)).status).toBe(303);
    const reused = await verify(token);
    expect(issuePaths(reused)).toEqual(['token']);
    expect(reused.headers.getSetCookie()).toEqual([]);
  });

  it('expires after 15 minutes', async () => {
    expectSuccess(await send(t.admin.email));
    const token = tokenOf((await sink.next()).link);
    t.clock.advance(15 * 60_000);
    expect(issuePaths(await verify(token))).toEqual(['token']);
  });

  it('refuses a link of a user disabled since it was sent, and a made-up token', async () => {
    const { user } = await t.userWithToken(20, ['content:read']);
    expectSuccess(await send(user.email));
    const token = tokenOf((await sink.next()).link);
    expectSuccess(await t.request('POST', `${api}/admin/users/${user.id}/disable`, { token: t.adminToken }));
    expect(issuePaths(await verify(token))).toEqual(['token']);
    expect(issuePaths(await verify('x'.repeat(43)))).toEqual(['token']);
    expect(issuePaths(await t.request('GET', `${api}/auth/magic-link/verify`))).toEqual(['token']);
  });

  it('ends the session the browser had when it signs in again', async () => {
    expectSuccess(await send(t.admin.email));
    const first = cookieFromResponse((await verify(tokenOf((await sink.next()).link))).headers)!;
    expectSuccess(await send(t.admin.email));
    const second = cookieFromResponse((await verify(tokenOf((await sink.next()).link), { cookie: first })).headers)!;
    expect(second).not.toBe(first);
    expectError(await t.request('GET', `${api}/auth/me`, { headers: { cookie: first } }), 401, 'UNAUTHORIZED');
    expectSuccess(await t.request('GET', `${api}/auth/me`, { headers: { cookie: second } }));
  });

  it('sends nothing for an unknown address, and answers exactly as for a known one', async () => {
    t.clock.advance(15 * 60_000);
    const unknown = await send('nobody@example.com');
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual((await send(t.admin.email)).body);
    await sink.next();
    await realMailer.idle();
    expect(sink.waiting()).toBe(0);
  });

  it('refuses input that is not an address, naming the field', async () => {
    expect(issuePaths(await send('not-an-address'))).toEqual(['email']);
    expect(issuePaths(await t.request('POST', `${api}/auth/magic-link/send`, { body: {} }))).toEqual(['email']);
    expect(issuePaths(await t.request('POST', `${api}/auth/magic-link/send`, { body: { email: 'a@example.com', extra: 1 } }))).toEqual(['extra']);
  });
});

describe('magic-link send, known or not', () => {
  it('does the same work on the response path and leaves the lookup and the mail for after it', async () => {
    const held = heldMailer();
    const other = await createTestApp({ TRUST_PROXY: '1' }, { mailer: held.mailer });
    try {
      const request = (email: string) => other.request('POST', `${api}/auth/magic-link/send`, { body: { email }, headers: { 'x-forwarded-for': '192.0.2.10' } });
      let known: Awaited<ReturnType<typeof request>> | undefined;
      let unknown: Awaited<ReturnType<typeof request>> | undefined;
      const knownStatements = await other.statementsDuring(async () => (known = await request(other.admin.email)));
      const unknownStatements = await other.statementsDuring(async () => (unknown = await request('nobody@example.com')));
      expect(known!.status).toBe(200);
      expect(unknown!.body).toEqual(known!.body);
      expect(unknownStatements).toEqual(knownStatements);
      expect(knownStatements.join('\n')).not.toMatch(/users|magic_links/);
      expect(held.held()).toBe(2);
      const [knownMail, unknownMail] = await held.release();
      expect(knownMail?.to).toBe(other.admin.email);
      expect(unknownMail).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it('is limited per address and per client, known or not, with Retry-After', async () => {
    const held = heldMailer();
    const other = await createTestApp({ TRUST_PROXY: '1' }, { mailer: held.mailer });
    try {
      const request = (email: string, from: string) => other.request('POST', `${api}/auth/magic-link/send`, { body: { email }, headers: { 'x-forwarded-for': from } });
      for (let i = 0; i < 5; i += 1) expectSuccess(await request('target@example.com', `198.51.100.${i}`));
      const perAddress = await request('target@example.com', '198.51.100.99');
      expectError(perAddress, 429, 'RATE_LIMITED');
      expect(Number(perAddress.headers.get('retry-after'))).toBeGreaterThan(0);
      for (let i = 0; i < 10; i += 1) expectSuccess(await request(`person${i}@example.com`, '203.0.113.5'));
      expectError(await request('person-next@example.com', '203.0.113.5'), 429, 'RATE_LIMITED');
      expectSuccess(await request('person-next@example.com', '203.0.113.6'));
    } finally {
      await other.close();
    }
  });

  it('verify is limited per client too', async () => {
    const other = await createTestApp({ TRUST_PROXY: '1' });
    try {
      const attempt = () => other.request('GET', `${api}/auth/magic-link/verify?token=guess`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
      for (let i = 0; i < 20; i += 1) expect((await attempt()).status).toBe(400);
      const limited = await attempt();
      expectError(limited, 429, 'RATE_LIMITED');
      expect(limited.headers.get('retry-after')).not.toBeNull();
    } finally {
      await other.close();
    }
  });
});

describe('a link that returns to where sign-in was asked from (issue 29, item 11)', () => {
  it('carries a return path of Folio’s own pages through the mail, its page and verify, back to that page', async () => {
    const held = heldMailer();
    const other = await createTestApp({ PUBLIC_URL: 'http://localhost:3000' }, { mailer: held.mailer });
    try {
      // Where the authorization endpoint sent a browser without a session: this very request.
      const back = '/_cms/oauth/authorize?response_type=code&client_id=folio_client_x&redirect_uri=http%3A%2F%2F127.0.0.1%3A9999%2Fcallback&state=a%26b&scope=content%3Aread';
      expectSuccess(await other.request('POST', `${api}/auth/magic-link/send`, { body: { email: other.admin.email, return: back } }));
      const [mail] = await held.release();
      const link = new URL(mail!.link);
      expect(link.searchParams.get('return')).toBe(back);
      // The page the mail opens: its form sends token and return on, as a browser submits it.
      const page = String((await other.request('GET', link.pathname + link.search)).body);
      const fields = new URLSearchParams([...page.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map(([, name, value]): [string, string] => [name!, value!.replaceAll('&amp;', '&')]));
      expect(fields.get('return')).toBe(back);
      const signedIn = await other.request('GET', `${api}/auth/magic-link/verify?${fields}`);
      expect(signedIn.status).toBe(303);
      expect(signedIn.headers.get('location')).toBe(back);
      const cookie = cookieFromResponse(signedIn.headers)!;
      expect(expectSuccess(await other.request('GET', `${api}/auth/me`, { headers: { cookie } })).item.id).toBe(other.admin.id);
    } finally {
      await other.close();
    }
  });

  it('refuses to mail a return that is not a path of Folio’s own pages, and never redirects off them', async () => {
    const held = heldMailer();
    const other = await createTestApp({}, { mailer: held.mailer });
    try {
      for (const away of ['https://evil.example/_cms/', '//evil.example/_cms/', '/_cms/../admin', '/_cms/\\evil.example', '/elsewhere', '/_cms/a\nb']) {
        const refused = await other.request('POST', `${api}/auth/magic-link/send`, { body: { email: other.admin.email, return: away } });
        expect(issuePaths(refused), away).toEqual(['return']);
      }
      expect(held.held()).toBe(0);
      // A link whose return was changed on the way still signs in, and lands on the account page.
      expectSuccess(await other.request('POST', `${api}/auth/magic-link/send`, { body: { email: other.admin.email } }));
      const [mail] = await held.release();
      expect(new URL(mail!.link).searchParams.has('return')).toBe(false);
      const page = String((await other.request('GET', `/_cms/sign-in/link?token=x&return=${encodeURIComponent('//evil.example/')}`)).body);
      expect(page).not.toContain('name="return"');
      const signedIn = await other.request('GET', `${api}/auth/magic-link/verify?token=${tokenOf(mail!.link)}&return=${encodeURIComponent('https://evil.example/')}`);
      expect(signedIn.status).toBe(303);
      expect(signedIn.headers.get('location')).toBe('/_cms/admin/');
    } finally {
      await other.close();
    }
  });
});
