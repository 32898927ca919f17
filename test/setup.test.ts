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

/** What the setup page does: options for the passkey, the device's registration, then the account with it. */
async function setUpWithPasskey(app: TestApp, device: SoftAuthenticator, account: { secret: string; name: string; email: string }) {
  const options = expectSuccess(await app.request('POST', `${api}/setup/admin/options`, { body: account }));
  return app.request('POST', `${api}/setup/admin`, { body: { ...account, passkey: device.register(options).response } });
}

describe('first-run setup', () => {
  it('starts with no users and setup not complete', async () => {
    expect(expectSuccess(await t.request('GET', `${api}/setup/status`))).toEqual({ setupComplete: false, hasUsers: false });
  });

  it('refuses without the secret of a printed setup link, and bad input naming the field', async () => {
    await createSetupSecret(t.db, t.clock);
    const guessed = { secret: 'guessed', name: 'Eve', email: 'eve@example.com' };
    expect(expectError(await t.request('POST', `${api}/setup/admin/options`, { body: guessed }), 403, 'FORBIDDEN').details.reason).toBe('setup_secret');
    expect(issuePaths(await t.request('POST', `${api}/setup/admin/options`, { body: { secret: 'x', name: '', email: 'nope' } }))).toEqual(['name', 'email']);
    expect(issuePaths(await setupAdmin(guessed))).toEqual(['passkey']);
    expect(expectSuccess(await t.request('GET', `${api}/setup/status`))).toEqual({ setupComplete: false, hasUsers: false });
  });

  it('creates no account for a passkey ceremony that fails, and the same link then finishes setup', async () => {
    const fresh = await createTestApp({ PUBLIC_URL: origin }, { withoutAdmin: true });
    try {
      const secret = await createSetupSecret(fresh.db, fresh.clock);
      const account = { secret, name: 'Ada Lovelace', email: 'ada@example.com' };
      const status = async () => expectSuccess(await fresh.request('GET', `${api}/setup/status`));
      // Options alone make nothing: the person may cancel the browser's dialog, or the browser refuse.
      expectSuccess(await fresh.request('POST', `${api}/setup/admin/options`, { body: account }));
      expect(await status()).toEqual({ setupComplete: false, hasUsers: false });
      // A registration made at another address (the IP one a browser refuses passkeys on) does not verify.
      const options = expectSuccess(await fresh.request('POST', `${api}/setup/admin/options`, { body: account }));
      const elsewhere = new SoftAuthenticator({ origin: 'http://127.0.0.1:3000' }).register(options).response;
      const refused = await fresh.request('POST', `${api}/setup/admin`, { body: { ...account, passkey: elsewhere } });
      expect(issuePaths(refused)).toEqual(['passkey']);
      expect(refused.headers.getSetCookie()).toEqual([]);
      expect(await status()).toEqual({ setupComplete: false, hasUsers: false });
      expect(await fresh.db.kysely.selectFrom('passkeys').select('id').execute()).toEqual([]);

      expect((await setUpWithPasskey(fresh, new SoftAuthenticator({ origin }), account)).status).toBe(201);
      expect(await status()).toEqual({ setupComplete: true, hasUsers: true });
    } finally {
      await fresh.close();
    }
  });

  it('creates the first admin with their passkey, signed in, who signs in with it again; then setup refuses', async () => {
    const secret = await createSetupSecret(t.db, t.clock);
    const device = new SoftAuthenticator({ origin });
    const created = await setUpWithPasskey(t, device, { secret, name: 'Ada Lovelace', email: 'Ada@Example.com' });
    expect(created.status).toBe(201);
    expect(created.body.data.item).toMatchObject({ email: 'ada@example.com', name: 'Ada Lovelace', role: 50 });
    const cookie = cookieFromResponse(created.headers)!;
    const me = expectSuccess(await t.request('GET', `${api}/auth/me`, { headers: { cookie } }));
    expect(me.scopes).toContain('admin');
    expect(expectSuccess(await t.request('GET', `${api}/auth/passkey`, { headers: { cookie } })).items.map((item: { name: string }) => item.name)).toEqual(['First passkey']);
    expect(expectSuccess(await t.request('GET', `${api}/setup/status`))).toEqual({ setupComplete: true, hasUsers: true });
    // The device holds the passkey under the account's own id, as passkeys added later are.
    expect(Buffer.from(device.credentials[0]!.userHandle, 'base64url').toString('utf8')).toBe(me.item.id);

    const signIn = expectSuccess(await t.request('POST', `${api}/auth/passkey/options`));
    expect(expectSuccess(await t.request('POST', `${api}/auth/passkey/verify`, { body: device.assert(signIn) })).item.email).toBe('ada@example.com');

    // Every secret is gone with setup, and a new one would not help either.
    const again = await t.request('POST', `${api}/setup/admin/options`, { body: { secret, name: 'Eve', email: 'eve@example.com' } });
    expect(expectError(again, 403, 'FORBIDDEN').details.reason).toBe('setup_complete');
    const late = await createSetupSecret(t.db, t.clock);
    const lateAttempt = await setupAdmin({ secret: late, name: 'Eve', email: 'eve@example.com', passkey: device.register({ challenge: signIn.challenge, user: { id: 'eve' } }).response });
    expect(expectError(lateAttempt, 403, 'FORBIDDEN').details.reason).toBe('setup_complete');
    expect(lateAttempt.headers.getSetCookie()).toEqual([]);
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

      expect((await setUpWithPasskey(fresh, new SoftAuthenticator({ origin }), { secret, name: 'Ada', email: 'ada@example.com' })).status).toBe(201);
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
      const attempts = await Promise.all(
        ['one', 'two'].map(async (who) => {
          const account = { secret, name: who, email: `${who}@example.com` };
          const options = expectSuccess(await fresh.request('POST', `${api}/setup/admin/options`, { body: account }));
          return { account, passkey: new SoftAuthenticator({ origin }).register(options).response };
        }),
      );
      const results = await Promise.all(attempts.map(({ account, passkey }) => fresh.request('POST', `${api}/setup/admin`, { body: { ...account, passkey } })));
      expect(results.map((result) => result.status).sort()).toEqual([201, 403]);
      expect(await fresh.db.kysely.selectFrom('users').select('email').execute()).toHaveLength(1);
      expect(await fresh.db.kysely.selectFrom('passkeys').select('id').execute()).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });

  it('answers 429 with Retry-After when hammered', async () => {
    const fresh = await createTestApp({ TRUST_PROXY: '1' }, { withoutAdmin: true });
    try {
      const attempt = () => fresh.request('POST', `${api}/setup/admin/options`, { headers: { 'x-forwarded-for': '203.0.113.50' }, body: { secret: 'guess', name: 'E', email: 'e@example.com' } });
      for (let i = 0; i < 10; i += 1) expect((await attempt()).status).toBe(403);
      const limited = await attempt();
      expectError(limited, 429, 'RATE_LIMITED');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await fresh.close();
    }
  });
});
