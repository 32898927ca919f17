import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSetupSecret } from '../src/auth/setup.ts';
import { SoftAuthenticator } from './support/authenticator.ts';
import { api } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';
import { cookieFromResponse } from './support/sessions.ts';

const origin = 'http://localhost:3000';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: origin }, { withoutAdmin: true });
});
afterAll(() => t.close());

const setupAdmin = (body: unknown) => t.request('POST', `${api}/setup/admin`, { body });

describe('first-run setup', () => {
  it('starts with no users and setup not complete', async () => {
    expect(expectSuccess(await t.request('GET', `${api}/setup/status`))).toEqual({ setupComplete: false, hasUsers: false });
  });

  it('refuses without the secret of a printed setup link, and bad input naming the field', async () => {
    await createSetupSecret(t.db, t.clock);
    expect(expectError(await setupAdmin({ secret: 'guessed', name: 'Eve', email: 'eve@example.com' }), 403, 'FORBIDDEN').details.reason).toBe('setup_secret');
    expect(issuePaths(await setupAdmin({ secret: 'x', name: '', email: 'nope' }))).toEqual(['name', 'email']);
    expect(expectSuccess(await t.request('GET', `${api}/setup/status`))).toEqual({ setupComplete: false, hasUsers: false });
  });

  it('creates the first admin, signed in, who then registers a passkey and signs in with it; then setup refuses', async () => {
    const secret = await createSetupSecret(t.db, t.clock);
    const created = await setupAdmin({ secret, name: 'Ada Lovelace', email: 'Ada@Example.com' });
    expect(created.status).toBe(201);
    expect(created.body.data.item).toMatchObject({ email: 'ada@example.com', name: 'Ada Lovelace', role: 50 });
    const cookie = cookieFromResponse(created.headers)!;
    expect(expectSuccess(await t.request('GET', `${api}/auth/me`, { headers: { cookie } })).scopes).toContain('admin');
    expect(expectSuccess(await t.request('GET', `${api}/setup/status`))).toEqual({ setupComplete: true, hasUsers: true });

    const device = new SoftAuthenticator({ origin });
    const options = expectSuccess(await t.request('POST', `${api}/auth/passkey/register/options`, { headers: { cookie } }));
    expect((await t.request('POST', `${api}/auth/passkey/register/verify`, { headers: { cookie }, body: device.register(options).response })).status).toBe(201);
    const signIn = expectSuccess(await t.request('POST', `${api}/auth/passkey/options`));
    expect(expectSuccess(await t.request('POST', `${api}/auth/passkey/verify`, { body: device.assert(signIn) })).item.email).toBe('ada@example.com');

    // Every secret is gone with setup, and a new one would not help either.
    const again = await setupAdmin({ secret, name: 'Eve', email: 'eve@example.com' });
    expect(expectError(again, 403, 'FORBIDDEN').details.reason).toBe('setup_complete');
    expect(again.headers.getSetCookie()).toEqual([]);
    const late = await createSetupSecret(t.db, t.clock);
    expect(expectError(await setupAdmin({ secret: late, name: 'Eve', email: 'eve@example.com' }), 403, 'FORBIDDEN').details.reason).toBe('setup_complete');
  });
});

describe('the setup page', () => {
  it('shows its form until setup is complete, then says at once that it is, with a link to sign in', async () => {
    const fresh = await createTestApp({ PUBLIC_URL: origin }, { withoutAdmin: true });
    try {
      const secret = await createSetupSecret(fresh.db, fresh.clock);
      const before = await fresh.request('GET', `/_cms/setup?secret=${secret}`);
      expect(before.status).toBe(200);
      expect(String(before.body)).toContain('<form id="setup-form">');
      expect(String(before.body)).toContain(`value="${secret}"`);

      expect((await fresh.request('POST', `${api}/setup/admin`, { body: { secret, name: 'Ada', email: 'ada@example.com' } })).status).toBe(201);
      // The same link, opened again later (a second tab, a bookmark): no form to fill in and be refused.
      const stale = await fresh.request('GET', `/_cms/setup?secret=${secret}`);
      expect(stale.status).toBe(200);
      expect(stale.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const page = String(stale.body);
      expect(page).toMatch(/Setup is complete/);
      expect(page).toContain('<a href="/_cms/sign-in">Sign in</a>');
      expect(page).not.toContain('<form');
      expect(page).not.toContain(secret);
    } finally {
      await fresh.close();
    }
  });
});

describe('setup races and limits', () => {
  it('lets one of two attempts at once create the first admin', async () => {
    const fresh = await createTestApp({ PUBLIC_URL: origin }, { withoutAdmin: true });
    try {
      const secret = await createSetupSecret(fresh.db, fresh.clock);
      const results = await Promise.all(['one', 'two'].map((who) => fresh.request('POST', `${api}/setup/admin`, { body: { secret, name: who, email: `${who}@example.com` } })));
      expect(results.map((result) => result.status).sort()).toEqual([201, 403]);
      const users = await fresh.db.kysely.selectFrom('users').select('email').execute();
      expect(users).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });

  it('answers 429 with Retry-After when hammered', async () => {
    const fresh = await createTestApp({ TRUST_PROXY: '1' }, { withoutAdmin: true });
    try {
      const attempt = () => fresh.request('POST', `${api}/setup/admin`, { headers: { 'x-forwarded-for': '203.0.113.50' }, body: { secret: 'guess', name: 'E', email: 'e@example.com' } });
      for (let i = 0; i < 10; i += 1) expect((await attempt()).status).toBe(403);
      const limited = await attempt();
      expectError(limited, 429, 'RATE_LIMITED');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await fresh.close();
    }
  });
});
