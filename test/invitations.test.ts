import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../src/auth/mail.ts';
import { scopesForRole } from '../src/core/roles.ts';
import { SoftAuthenticator } from './support/authenticator.ts';
import { api } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';
import { cookieFromResponse } from './support/sessions.ts';
import { startSmtpSink, type SmtpSink } from './support/smtp.ts';

const origin = 'http://localhost:3000';
let sink: SmtpSink;
let t: TestApp;
let mailer: ReturnType<typeof createMailer>;

beforeAll(async () => {
  sink = await startSmtpSink();
  mailer = createMailer({ smtp: { transport: sink.url, from: 'folio@localhost' } }, pino({ level: 'silent' }));
  t = await createTestApp({ PUBLIC_URL: origin, SMTP_URL: sink.url }, { mailer });
});
afterAll(async () => {
  mailer.close();
  await t.close();
  await sink.close();
});

const inviteAs = (token: string, body: unknown) => t.request('POST', `${api}/auth/invite`, { token, body });
const accept = (body: unknown, headers: Record<string, string> = {}) => t.request('POST', `${api}/auth/invitation/accept`, { body, headers });
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

describe('invitations', () => {
  it('mails a single-use link; accepting it makes the account with the role, signed in, ready for a passkey', async () => {
    const invited = await inviteAs(t.adminToken, { email: 'Author@Example.com', role: 30 });
    expect(invited.status).toBe(201);
    expect(invited.body.data.item).toEqual({ id: expect.any(String), email: 'author@example.com', role: 30, createdAt: expect.any(String), expiresAt: expect.any(String) });
    expect(Date.parse(invited.body.data.item.expiresAt) - Date.parse(invited.body.data.item.createdAt)).toBe(7 * 86_400_000);
    const mail = await sink.next();
    expect(mail.to).toEqual(['author@example.com']);
    expect(mail.link).toMatch(/^http:\/\/localhost:3000\/_cms\/invitation\?token=[\w-]{43}$/);
    expect(mail.text).toContain('as Author');

    const accepted = await accept({ token: tokenOf(mail.link), name: 'Mary Shelley' });
    expect(accepted.status).toBe(201);
    expect(accepted.body.data.item).toMatchObject({ email: 'author@example.com', name: 'Mary Shelley', role: 30 });
    const cookie = cookieFromResponse(accepted.headers)!;
    expect(expectSuccess(await t.request('GET', `${api}/auth/me`, { headers: { cookie } })).scopes).toEqual(scopesForRole(30));

    const device = new SoftAuthenticator({ origin });
    const options = expectSuccess(await t.request('POST', `${api}/auth/passkey/register/options`, { headers: { cookie } }));
    expect((await t.request('POST', `${api}/auth/passkey/register/verify`, { headers: { cookie }, body: device.register(options).response })).status).toBe(201);
    const signIn = expectSuccess(await t.request('POST', `${api}/auth/passkey/options`));
    expect(expectSuccess(await t.request('POST', `${api}/auth/passkey/verify`, { body: device.assert(signIn) })).item.email).toBe('author@example.com');

    // Once: the link is spent.
    const again = await accept({ token: tokenOf(mail.link), name: 'Someone else' });
    expect(issuePaths(again)).toEqual(['token']);
    expect(again.headers.getSetCookie()).toEqual([]);
  });

  it('expires after 7 days, and a second invitation replaces the first', async () => {
    expect((await inviteAs(t.adminToken, { email: 'late@example.com', role: 20 })).status).toBe(201);
    const first = tokenOf((await sink.next()).link);
    expect((await inviteAs(t.adminToken, { email: 'late@example.com', role: 40 })).status).toBe(201);
    const second = tokenOf((await sink.next()).link);
    expect(issuePaths(await accept({ token: first, name: 'Late' }))).toEqual(['token']);
    t.clock.advance(7 * 86_400_000);
    expect(issuePaths(await accept({ token: second, name: 'Late' }))).toEqual(['token']);
  });

  it('refuses an address that already has an account with 409, before and at acceptance', async () => {
    expectError(await inviteAs(t.adminToken, { email: t.admin.email, role: 20 }), 409, 'CONFLICT');
    expect((await inviteAs(t.adminToken, { email: 'twice@example.com', role: 20 })).status).toBe(201);
    const token = tokenOf((await sink.next()).link);
    await t.userWithToken(20, ['content:read'], 'twice@example.com');
    const refused = await accept({ token, name: 'Twice' });
    expectError(refused, 409, 'CONFLICT');
    expect(refused.headers.getSetCookie()).toEqual([]);
  });

  it('refuses a role that is not a role, a bad address, and unknown keys, naming each', async () => {
    expect(issuePaths(await inviteAs(t.adminToken, { email: 'x@example.com', role: 35 }))).toEqual(['role']);
    expect(issuePaths(await inviteAs(t.adminToken, { email: 'x@example.com', role: '50' }))).toEqual(['role']);
    expect(issuePaths(await inviteAs(t.adminToken, { email: 'nope', role: 20 }))).toEqual(['email']);
    expect(issuePaths(await inviteAs(t.adminToken, { email: 'x@example.com', role: 20, extra: 1 }))).toEqual(['extra']);
    expect(issuePaths(await accept({ token: 'x', name: '' }))).toEqual(['name']);
    expect(issuePaths(await accept({ name: 'Ada' }))).toEqual(['token']);
  });

  it('is for admins: 401 without a credential, 403 for an editor', async () => {
    expectError(await t.request('POST', `${api}/auth/invite`, { body: { email: 'x@example.com', role: 20 } }), 401, 'UNAUTHORIZED');
    const editor = await t.userWithToken(40, ['content:read', 'content:write', 'schema:read']);
    expectError(await inviteAs(editor.token, { email: 'x@example.com', role: 20 }), 403, 'FORBIDDEN');
  });

  it('answers 429 with Retry-After when hammered, inviting and accepting', async () => {
    const other = await createTestApp({ TRUST_PROXY: '1' }, { mailer: { delivers: false, deliverLater: () => undefined, idle: async () => undefined, close: () => undefined } });
    try {
      const from = { 'x-forwarded-for': '198.51.100.20' };
      for (let i = 0; i < 20; i += 1) expect((await other.request('POST', `${api}/auth/invite`, { token: other.adminToken, headers: from, body: { email: `p${i}@example.com`, role: 20 } })).status).toBe(201);
      const limited = await other.request('POST', `${api}/auth/invite`, { token: other.adminToken, headers: from, body: { email: 'p-last@example.com', role: 20 } });
      expectError(limited, 429, 'RATE_LIMITED');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      for (let i = 0; i < 10; i += 1) expect((await other.request('POST', `${api}/auth/invitation/accept`, { headers: from, body: { token: `guess${i}`, name: 'X' } })).status).toBe(400);
      expectError(await other.request('POST', `${api}/auth/invitation/accept`, { headers: from, body: { token: 'guess', name: 'X' } }), 429, 'RATE_LIMITED');
    } finally {
      await other.close();
    }
  });
});
