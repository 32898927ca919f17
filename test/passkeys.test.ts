import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/content.ts';
import { SoftAuthenticator } from './support/authenticator.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type ApiResponse, type TestApp } from './support/harness.ts';
import { cookieFromResponse, sessionCookieFor } from './support/sessions.ts';

const origin = 'http://localhost:3000';
let t: TestApp;
let cookie: string;
let device: SoftAuthenticator;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: origin });
  cookie = await sessionCookieFor(t, t.admin.id);
  device = new SoftAuthenticator({ origin });
});
afterAll(() => t.close());

const asUser = (sessionCookie: string) => ({ headers: { cookie: sessionCookie } });

async function registrationOptions(sessionCookie = cookie) {
  return expectSuccess(await t.request('POST', `${api}/auth/passkey/register/options`, asUser(sessionCookie)));
}

async function register(authenticator = device, sessionCookie = cookie, name?: string) {
  const options = await registrationOptions(sessionCookie);
  const { response } = authenticator.register(options);
  const created = await t.request('POST', `${api}/auth/passkey/register/verify`, { ...asUser(sessionCookie), body: { ...response, ...(name ? { name } : {}) } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data.item as { id: string; name: string };
}

async function signInOptions() {
  return expectSuccess(await t.request('POST', `${api}/auth/passkey/options`));
}

const verify = (body: unknown, headers: Record<string, string> = {}) => t.request('POST', `${api}/auth/passkey/verify`, { body, headers });

function expectRefusedSignIn(response: ApiResponse) {
  expectError(response, 401, 'UNAUTHORIZED');
  expect(response.headers.getSetCookie()).toEqual([]);
}

describe('registering a passkey', () => {
  it('gives options for the signed-in user on Folio RP id, and stores the verified credential', async () => {
    const options = await registrationOptions();
    expect(options).toMatchObject({ rp: { id: 'localhost', name: 'Folio' }, user: { name: t.admin.email }, attestation: 'none' });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required' });
    const { response } = device.register(options);
    const created = await t.request('POST', `${api}/auth/passkey/register/verify`, { ...asUser(cookie), body: { ...response, name: 'Laptop' } });
    expect(created.status).toBe(201);
    expect(created.body.data.item).toEqual({ id: expect.any(String), name: 'Laptop', createdAt: expect.any(String), lastUsedAt: null });
    const { items } = expectSuccess(await t.request('GET', `${api}/auth/passkey`, asUser(cookie)));
    expect(items.map((item: { name: string }) => item.name)).toEqual(['Laptop']);
    // The next options exclude what is registered, so the browser does not register it twice.
    expect((await registrationOptions()).excludeCredentials).toEqual([{ id: device.credentials[0]!.id, type: 'public-key', transports: ['internal'] }]);
  });

  it('refuses a reused, expired, or foreign challenge, a wrong origin and a wrong RP id with 400 naming the response', async () => {
    const other = new SoftAuthenticator({ origin });
    const options = await registrationOptions();
    const { response } = other.register(options);
    expect((await t.request('POST', `${api}/auth/passkey/register/verify`, { ...asUser(cookie), body: response })).status).toBe(201);
    expect(issuePaths(await t.request('POST', `${api}/auth/passkey/register/verify`, { ...asUser(cookie), body: other.register(options).response }))).toEqual(['response']);

    const expiring = await registrationOptions();
    t.clock.advance(5 * 60_000);
    expect(issuePaths(await t.request('POST', `${api}/auth/passkey/register/verify`, { ...asUser(cookie), body: other.register(expiring).response }))).toEqual(['response']);

    const { user: editor } = await t.userWithToken(40, ['content:read']);
    const editorCookie = await sessionCookieFor(t, editor.id);
    const editorsOptions = await registrationOptions(editorCookie);
    expect(issuePaths(await t.request('POST', `${api}/auth/passkey/register/verify`, { ...asUser(cookie), body: other.register(editorsOptions).response }))).toEqual(['response']);

    const wrongOrigin = other.register(await registrationOptions(), { origin: 'https://evil.example' }).response;
    expect(issuePaths(await t.request('POST', `${api}/auth/passkey/register/verify`, { ...asUser(cookie), body: wrongOrigin }))).toEqual(['response']);
    const wrongRp = other.register({ ...(await registrationOptions()), rp: { id: 'evil.example' } }).response;
    expect(issuePaths(await t.request('POST', `${api}/auth/passkey/register/verify`, { ...asUser(cookie), body: wrongRp }))).toEqual(['response']);
    const assertionType = other.register(await registrationOptions(), { type: 'webauthn.get' }).response;
    expect(issuePaths(await t.request('POST', `${api}/auth/passkey/register/verify`, { ...asUser(cookie), body: assertionType }))).toEqual(['response']);
  });

  it('refuses malformed payloads naming the field, and callers without a credential', async () => {
    const { response } = device.register(await registrationOptions());
    expect(issuePaths(await t.request('POST', `${api}/auth/passkey/register/verify`, { ...asUser(cookie), body: { ...response, type: 'password' } }))).toEqual(['type']);
    expect(issuePaths(await t.request('POST', `${api}/auth/passkey/register/verify`, { ...asUser(cookie), body: { ...response, response: { clientDataJSON: 'not base64url!' } } }))).toEqual([
      'response.clientDataJSON',
      'response.attestationObject',
    ]);
    expect(issuePaths(await t.request('POST', `${api}/auth/passkey/register/verify`, { ...asUser(cookie), body: { ...response, name: '' } }))).toEqual(['name']);
    for (const [method, path] of [
      ['POST', '/auth/passkey/register/options'],
      ['POST', '/auth/passkey/register/verify'],
      ['GET', '/auth/passkey'],
      ['PATCH', '/auth/passkey/X'],
      ['DELETE', '/auth/passkey/X'],
    ] as const) {
      expectError(await t.request(method, `${api}${path}`, method === 'GET' || method === 'DELETE' ? {} : { body: {} }), 401, 'UNAUTHORIZED');
    }
  });

  it('refuses a cross-origin request carrying the session cookie', async () => {
    const refused = await t.request('POST', `${api}/auth/passkey/register/options`, { headers: { cookie, origin: 'https://evil.example' } });
    expect(expectError(refused, 403, 'FORBIDDEN').details.reason).toBe('origin');
  });

  it('stops at 10 passkeys a user with 409', async () => {
    const { user } = await t.userWithToken(20, ['content:read']);
    const userCookie = await sessionCookieFor(t, user.id);
    const many = new SoftAuthenticator({ origin });
    for (let i = 0; i < 10; i += 1) await register(many, userCookie);
    expect(expectError(await t.request('POST', `${api}/auth/passkey/register/options`, asUser(userCookie)), 409, 'CONFLICT').details.reason).toBe('passkey_limit');
  });
});

describe('signing in with a passkey', () => {
  it('verifies an assertion, starts a session in a cookie, and records the use', async () => {
    const options = await signInOptions();
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'preferred' });
    expect(options.allowCredentials ?? []).toEqual([]);
    const response = await verify(device.assert(options));
    expect(expectSuccess(response)).toEqual({ item: expect.objectContaining({ id: t.admin.id }) });
    expect(JSON.stringify(response.body)).not.toMatch(/session|token/i);
    const newCookie = cookieFromResponse(response.headers)!;
    expect(expectSuccess(await t.request('GET', `${api}/auth/me`, asUser(newCookie))).item.id).toBe(t.admin.id);
    const { items } = expectSuccess(await t.request('GET', `${api}/auth/passkey`, asUser(newCookie)));
    expect(items.find((item: { name: string }) => item.name === 'Laptop').lastUsedAt).not.toBeNull();
  });

  it('refuses a replayed assertion: its challenge is spent', async () => {
    const assertion = device.assert(await signInOptions());
    expectSuccess(await verify(assertion));
    expectRefusedSignIn(await verify(assertion));
  });

  it('refuses a second assertion on a used challenge, and an expired challenge', async () => {
    const options = await signInOptions();
    expectSuccess(await verify(device.assert(options)));
    expectRefusedSignIn(await verify(device.assert(options)));
    const expiring = await signInOptions();
    t.clock.advance(5 * 60_000);
    expectRefusedSignIn(await verify(device.assert(expiring)));
    expectRefusedSignIn(await verify(device.assert({ challenge: 'never-issued-challenge' })));
  });

  it('refuses forged assertions: another key, another origin, another RP id, an unknown credential, a counter gone back', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expectRefusedSignIn(await verify(device.assert(await signInOptions(), undefined, { signWith: privateKey })));
    expectRefusedSignIn(await verify(device.assert(await signInOptions(), undefined, { origin: 'https://evil.example' })));
    expectRefusedSignIn(await verify(device.assert({ ...(await signInOptions()), rpId: 'evil.example' })));
    const stranger = new SoftAuthenticator({ origin });
    stranger.register({ challenge: 'x', user: { id: 'someone' } });
    expectRefusedSignIn(await verify(stranger.assert(await signInOptions())));
    const cloned = device.assert(await signInOptions(), undefined, { counter: 1 });
    expectRefusedSignIn(await verify(cloned));
    // The authenticator itself still works with a counter past the stored one.
    device.credentials[0]!.counter = 100;
    expectSuccess(await verify(device.assert(await signInOptions())));
  });

  it('refuses a disabled user, and malformed bodies with 400 naming the field', async () => {
    const { user } = await t.userWithToken(20, ['content:read']);
    const theirs = new SoftAuthenticator({ origin });
    await register(theirs, await sessionCookieFor(t, user.id));
    expectSuccess(await verify(theirs.assert(await signInOptions())));
    expectSuccess(await t.request('POST', `${api}/admin/users/${user.id}/disable`, { token: t.adminToken }));
    expectRefusedSignIn(await verify(theirs.assert(await signInOptions())));
    expect(issuePaths(await verify({}))).toEqual(['id', 'rawId', 'type', 'response']);
    expect(issuePaths(await verify({ ...theirs.assert(await signInOptions()), extra: true }))).toEqual(['extra']);
  });

  it('replaces the session the browser had', async () => {
    const oldCookie = await sessionCookieFor(t, t.admin.id);
    const response = await verify(device.assert(await signInOptions()), { cookie: oldCookie });
    expectSuccess(response);
    expectError(await t.request('GET', `${api}/auth/me`, asUser(oldCookie)), 401, 'UNAUTHORIZED');
  });
});

describe('managing passkeys', () => {
  it('renames one of the caller, and not anyone else', async () => {
    const item = await register(new SoftAuthenticator({ origin }), cookie, 'Phone');
    expect(expectSuccess(await t.request('PATCH', `${api}/auth/passkey/${item.id}`, { ...asUser(cookie), body: { name: ' Work phone ' } })).item.name).toBe('Work phone');
    expect(issuePaths(await t.request('PATCH', `${api}/auth/passkey/${item.id}`, { ...asUser(cookie), body: { name: '' } }))).toEqual(['name']);
    const { user } = await t.userWithToken(50, ['admin']);
    const otherCookie = await sessionCookieFor(t, user.id);
    expectError(await t.request('PATCH', `${api}/auth/passkey/${item.id}`, { ...asUser(otherCookie), body: { name: 'Mine now' } }), 404, 'NOT_FOUND');
    expectError(await t.request('DELETE', `${api}/auth/passkey/${item.id}`, asUser(otherCookie)), 404, 'NOT_FOUND');
  });

  it('deletes a passkey, but not the last way in (no mail server for sign-in links)', async () => {
    const { user } = await t.userWithToken(30, ['content:read']);
    const userCookie = await sessionCookieFor(t, user.id);
    const first = await register(new SoftAuthenticator({ origin }), userCookie);
    const second = await register(new SoftAuthenticator({ origin }), userCookie);
    expect(expectSuccess(await t.request('DELETE', `${api}/auth/passkey/${first.id}`, asUser(userCookie)))).toEqual({ success: true });
    const refused = expectError(await t.request('DELETE', `${api}/auth/passkey/${second.id}`, asUser(userCookie)), 409, 'CONFLICT');
    expect(refused.details.reason).toBe('last_way_in');
    expect(expectSuccess(await t.request('GET', `${api}/auth/passkey`, asUser(userCookie))).items).toHaveLength(1);
    expectError(await t.request('DELETE', `${api}/auth/passkey/${first.id}`, asUser(userCookie)), 404, 'NOT_FOUND');
  });

  it('lets the last passkey go when magic links reach the user by mail', async () => {
    const withMail = await createTestApp({ PUBLIC_URL: origin, SMTP_URL: 'smtp://127.0.0.1:9' });
    try {
      const userCookie = await sessionCookieFor(withMail, withMail.admin.id);
      const options = expectSuccess(await withMail.request('POST', `${api}/auth/passkey/register/options`, asUser(userCookie)));
      const created = await withMail.request('POST', `${api}/auth/passkey/register/verify`, { ...asUser(userCookie), body: new SoftAuthenticator({ origin }).register(options).response });
      expectSuccess(await withMail.request('DELETE', `${api}/auth/passkey/${created.body.data.item.id}`, asUser(userCookie)));
    } finally {
      await withMail.close();
    }
  });
});

describe('passkey sign-in rate limits', () => {
  it('answer 429 with Retry-After when options and verify are hammered from one client', async () => {
    const other = await createTestApp({ PUBLIC_URL: origin, TRUST_PROXY: '1' });
    try {
      const from = { 'x-forwarded-for': '203.0.113.77' };
      for (let i = 0; i < 15; i += 1) expectSuccess(await other.request('POST', `${api}/auth/passkey/options`, { headers: from }));
      for (let i = 0; i < 15; i += 1) expectError(await other.request('POST', `${api}/auth/passkey/verify`, { headers: from, body: device.assert({ challenge: `guess-${i}` }) }), 401, 'UNAUTHORIZED');
      const limited = await other.request('POST', `${api}/auth/passkey/options`, { headers: from });
      expectError(limited, 429, 'RATE_LIMITED');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expectError(await other.request('POST', `${api}/auth/passkey/verify`, { headers: from, body: device.assert({ challenge: 'again' }) }), 429, 'RATE_LIMITED');
      expectSuccess(await other.request('POST', `${api}/auth/passkey/options`, { headers: { 'x-forwarded-for': '203.0.113.78' } }));
    } finally {
      await other.close();
    }
  });

  it('limits registration per account too', async () => {
    const other = await createTestApp({ PUBLIC_URL: origin });
    try {
      const userCookie = await sessionCookieFor(other, other.admin.id);
      for (let i = 0; i < 30; i += 1) expectSuccess(await other.request('POST', `${api}/auth/passkey/register/options`, asUser(userCookie)));
      expectError(await other.request('POST', `${api}/auth/passkey/register/options`, asUser(userCookie)), 429, 'RATE_LIMITED');
    } finally {
      await other.close();
    }
  });
});
