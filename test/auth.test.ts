import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, type TestApp } from './support/harness.ts';

const unauthorizedMessage = 'Authentication required: a valid bearer token or session';

describe('bearer authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const me = (headers: Record<string, string>) => t.request('GET', '/_cms/api/auth/me', { headers });

  it('refuses every kind of bad credential with the same 401', async () => {
    const { user } = await t.userWithToken(20, ['content:read']);
    const created = await t.request('POST', '/_cms/api/admin/tokens', {
      token: t.adminToken,
      body: { userId: user.id, name: 'short-lived', scopes: ['content:read'], expiresAt: new Date(t.clock.now().getTime() + 60_000).toISOString() },
    });
    expect(created.status).toBe(201);
    expect((await me({ authorization: `Bearer ${created.body.data.token}` })).status).toBe(200);
    const revoked = await t.userWithToken(20, ['content:read']);
    const revokedId = (await t.request('GET', `/_cms/api/admin/tokens?userId=${revoked.user.id}`, { token: t.adminToken })).body.data.items[0].id;
    expect((await t.request('DELETE', `/_cms/api/admin/tokens/${revokedId}`, { token: t.adminToken })).status).toBe(200);
    const disabled = await t.userWithToken(20, ['content:read']);
    expect((await t.request('POST', `/_cms/api/admin/users/${disabled.user.id}/disable`, { token: t.adminToken })).status).toBe(200);
    t.clock.advance(61_000);

    const cases: Record<string, Record<string, string>> = {
      missing: {},
      'not bearer': { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
      'empty bearer': { authorization: 'Bearer ' },
      'two words': { authorization: `Bearer ${t.adminToken} extra` },
      unknown: { authorization: 'Bearer ec_pat_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
      expired: { authorization: `Bearer ${created.body.data.token}` },
      revoked: { authorization: `Bearer ${revoked.token}` },
      'disabled user': { authorization: `Bearer ${disabled.token}` },
    };
    for (const [name, headers] of Object.entries(cases)) {
      const error = expectError(await me(headers), 401, 'UNAUTHORIZED');
      expect({ name, message: error.message, details: error.details }).toEqual({ name, message: unauthorizedMessage, details: {} });
    }
  });

  it('returns the current user and the effective scopes', async () => {
    const { user, token } = await t.userWithToken(40, ['content:read', 'schema:read']);
    const response = await t.request('GET', '/_cms/api/auth/me', { token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { item: { ...user }, scopes: ['content:read', 'schema:read'] } });
  });

  it('cuts a token to its user\'s current role at every request', async () => {
    const { user, token } = await t.userWithToken(50, ['admin', 'schema:write', 'content:read']);
    expect((await t.request('GET', '/_cms/api/admin/users', { token })).status).toBe(200);
    expect((await t.request('PATCH', `/_cms/api/admin/users/${user.id}`, { token: t.adminToken, body: { role: 20 } })).status).toBe(200);
    const meNow = await t.request('GET', '/_cms/api/auth/me', { token });
    expect(meNow.body.data.scopes).toEqual(['content:read']);
    const error = expectError(await t.request('GET', '/_cms/api/admin/users', { token }), 403, 'FORBIDDEN');
    expect(error.details).toEqual({ requiredScope: 'admin' });
  });

  it('records when a token was last used', async () => {
    const { user, token } = await t.userWithToken(20, ['content:read']);
    const before = (await t.request('GET', `/_cms/api/admin/tokens?userId=${user.id}`, { token: t.adminToken })).body.data.items[0];
    expect(before.lastUsedAt).toBeNull();
    await t.request('GET', '/_cms/api/auth/me', { token });
    const after = (await t.request('GET', `/_cms/api/admin/tokens?userId=${user.id}`, { token: t.adminToken })).body.data.items[0];
    expect(after.lastUsedAt).toBe(t.clock.now().toISOString());
  });
});

describe('personal access token administration', () => {
  let t: TestApp;
  let editor: { user: { id: string }; token: string };
  beforeAll(async () => {
    t = await createTestApp();
    editor = await t.userWithToken(40, ['content:read', 'schema:read']);
  });
  afterAll(() => t.close());

  it('creates a token whose secret is shown once and works at once', async () => {
    const response = await t.request('POST', '/_cms/api/admin/tokens', {
      token: t.adminToken,
      body: { userId: editor.user.id, name: 'deploy script', scopes: ['content:read', 'content:read', 'schema:read'] },
    });
    expect(response.status).toBe(201);
    const { token, item } = response.body.data;
    expect(token).toMatch(/^ec_pat_[A-Za-z0-9_-]{43}$/);
    expect(item).toMatchObject({ userId: editor.user.id, name: 'deploy script', scopes: ['content:read', 'schema:read'], expiresAt: null, lastUsedAt: null });
    expect((await t.request('GET', '/_cms/api/auth/me', { token })).body.data.item.id).toBe(editor.user.id);

    const listed = await t.request('GET', `/_cms/api/admin/tokens?userId=${editor.user.id}`, { token: t.adminToken });
    expect(listed.status).toBe(200);
    expect(listed.body.data.items.map((listedItem: { id: string }) => listedItem.id)).toContain(item.id);
    expect(JSON.stringify(listed.body)).not.toContain(token);
  });

  it('lists every token without a filter', async () => {
    const listed = await t.request('GET', '/_cms/api/admin/tokens', { token: t.adminToken });
    const owners = new Set(listed.body.data.items.map((item: { userId: string }) => item.userId));
    expect(owners).toEqual(new Set([t.admin.id, editor.user.id]));
  });

  it('revokes a token: it stops working and leaves the list', async () => {
    const created = await t.request('POST', '/_cms/api/admin/tokens', {
      token: t.adminToken,
      body: { userId: editor.user.id, name: 'to revoke', scopes: ['content:read'] },
    });
    const { token, item } = created.body.data;
    const revoked = await t.request('DELETE', `/_cms/api/admin/tokens/${item.id}`, { token: t.adminToken });
    expect(revoked.body).toEqual({ success: true, data: { success: true } });
    expectError(await t.request('GET', '/_cms/api/auth/me', { token }), 401, 'UNAUTHORIZED');
    const listed = await t.request('GET', '/_cms/api/admin/tokens', { token: t.adminToken });
    expect(listed.body.data.items.map((listedItem: { id: string }) => listedItem.id)).not.toContain(item.id);
    expectError(await t.request('DELETE', `/_cms/api/admin/tokens/${item.id}`, { token: t.adminToken }), 404, 'NOT_FOUND');
  });

  it('refuses bad token requests with the problem named, creating nothing', async () => {
    const before = (await t.request('GET', '/_cms/api/admin/tokens', { token: t.adminToken })).body.data.items.length;
    const cases: [unknown, string][] = [
      [{ userId: editor.user.id, name: 'x', scopes: ['content:wrte'] }, 'scopes.0'],
      [{ userId: editor.user.id, name: 'x', scopes: [] }, 'scopes'],
      [{ userId: editor.user.id, name: '', scopes: ['content:read'] }, 'name'],
      [{ userId: editor.user.id, name: 'x', scopes: ['content:read'], expiresAt: 'tomorrow' }, 'expiresAt'],
      [{ userId: editor.user.id, name: 'x', scopes: ['content:read'], expiresAt: '2001-01-01T00:00:00.000Z' }, 'expiresAt'],
      [{ userId: editor.user.id, name: 'x', scopes: ['admin'] }, 'scopes'],
      [{ userId: 'NO_SUCH_USER', name: 'x', scopes: ['content:read'] }, 'userId'],
      [{ userId: editor.user.id, name: 'x', scopes: ['content:read'], role: 50 }, 'role'],
      [{ userId: editor.user.id, name: 42, scopes: 'admin' }, 'name'],
    ];
    for (const [body, path] of cases) {
      const error = expectError(await t.request('POST', '/_cms/api/admin/tokens', { token: t.adminToken, body }), 400, 'VALIDATION_ERROR');
      expect(error.details.issues.map((issue: { path: string }) => issue.path), JSON.stringify(body)).toContain(path);
    }
    const after = (await t.request('GET', '/_cms/api/admin/tokens', { token: t.adminToken })).body.data.items.length;
    expect(after).toBe(before);
  });

  it('needs a credential (401) and the admin scope (403)', async () => {
    const body = { userId: editor.user.id, name: 'x', scopes: ['content:read'] };
    expectError(await t.request('POST', '/_cms/api/admin/tokens', { body }), 401, 'UNAUTHORIZED');
    expectError(await t.request('GET', '/_cms/api/admin/tokens'), 401, 'UNAUTHORIZED');
    expectError(await t.request('DELETE', '/_cms/api/admin/tokens/ANY'), 401, 'UNAUTHORIZED');
    for (const [method, path, requestBody] of [
      ['POST', '/_cms/api/admin/tokens', body],
      ['GET', '/_cms/api/admin/tokens', undefined],
      ['DELETE', '/_cms/api/admin/tokens/ANY', undefined],
    ] as const) {
      const error = expectError(await t.request(method, path, { token: editor.token, body: requestBody }), 403, 'FORBIDDEN');
      expect(error.details).toEqual({ requiredScope: 'admin' });
    }
  });
});
