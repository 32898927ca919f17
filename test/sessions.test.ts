import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookie, sessionCookieName, startSession } from '../src/auth/sessions.ts';
import { completeSetup } from '../src/auth/setup.ts';
import { scopesForRole } from '../src/core/roles.ts';
import { api } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, type TestApp } from './support/harness.ts';
import { serveMcp } from './support/mcp.ts';
import { sessionCookieFor } from './support/sessions.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://localhost:3000', SESSION_IDLE_TIMEOUT: '2h', SESSION_MAX_AGE: '1d' });
});
afterAll(() => t.close());

describe('setup status', () => {
  it('is public, and reports setup complete once the first admin is made the way setup makes it', async () => {
    expect(expectSuccess(await t.request('GET', `${api}/setup/status`))).toEqual({ setupComplete: false, hasUsers: true });
    await completeSetup(t.db, t.clock);
    expect(expectSuccess(await t.request('GET', `${api}/setup/status`))).toEqual({ setupComplete: true, hasUsers: true });
  });
});

describe('the session cookie', () => {
  it('is HttpOnly and SameSite=Lax, Secure with a __Host- name on https, and plain on http', () => {
    const session = { token: 'abc', expiresAt: '2030-01-01T00:00:00.000Z' };
    const secure = sessionCookie({ publicUrl: 'https://cms.example.com' }, session);
    expect(secure).toMatch(/^__Host-folio_session=abc; /);
    expect(secure.split('; ')).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax', 'Secure', 'Expires=Tue, 01 Jan 2030 00:00:00 GMT']));
    const plain = sessionCookie({ publicUrl: 'http://localhost:3000' }, session);
    expect(plain).toMatch(/^folio_session=abc; /);
    expect(plain).not.toContain('Secure');
    expect(sessionCookie({ publicUrl: undefined }, null)).toContain('Max-Age=0');
  });

  it('gives GET /auth/me the user and every scope the role allows', async () => {
    const cookie = await sessionCookieFor(t, t.admin.id);
    expect(expectSuccess(await t.request('GET', `${api}/auth/me`, { headers: { cookie } }))).toEqual({
      item: expect.objectContaining({ id: t.admin.id, role: 50 }),
      scopes: scopesForRole(50),
    });
    const { user: editor } = await t.userWithToken(40, ['content:read']);
    const editorCookie = await sessionCookieFor(t, editor.id);
    expect(expectSuccess(await t.request('GET', `${api}/auth/me`, { headers: { cookie: editorCookie } })).scopes).toEqual(['content:read', 'content:write', 'media:read', 'media:write', 'schema:read']);
    // The role's full access, role minima included: an Editor reads the schema, but may not write it.
    expectSuccess(await t.request('GET', `${api}/schema/collections`, { headers: { cookie: editorCookie } }));
    expectError(await t.request('POST', `${api}/schema/collections`, { headers: { cookie: editorCookie }, body: { slug: 'nope', label: 'Nope' } }), 403, 'FORBIDDEN');
  });

  it('is the one 401 when unknown, malformed, or absent where a credential is needed', async () => {
    const name = sessionCookieName(t.config);
    expectError(await t.request('GET', `${api}/auth/me`, { headers: { cookie: `${name}=unknown-token` } }), 401, 'UNAUTHORIZED');
    expectError(await t.request('GET', `${api}/auth/me`, { headers: { cookie: `${name}=not a token!` } }), 401, 'UNAUTHORIZED');
    expectError(await t.request('GET', `${api}/auth/me`, { headers: { cookie: 'other=1' } }), 401, 'UNAUTHORIZED');
    expectError(await t.request('POST', `${api}/auth/logout`), 401, 'UNAUTHORIZED');
  });

  it('ends after the idle timeout without requests, and lives on while used', async () => {
    const cookie = await sessionCookieFor(t, t.admin.id);
    t.clock.advance(90 * 60_000);
    expectSuccess(await t.request('GET', `${api}/auth/me`, { headers: { cookie } }));
    t.clock.advance(90 * 60_000);
    expectSuccess(await t.request('GET', `${api}/auth/me`, { headers: { cookie } }));
    t.clock.advance(2 * 3_600_000);
    expectError(await t.request('GET', `${api}/auth/me`, { headers: { cookie } }), 401, 'UNAUTHORIZED');
  });

  it('ends at its absolute expiry however much it is used', async () => {
    const cookie = await sessionCookieFor(t, t.admin.id);
    for (let hour = 0; hour < 23; hour += 1) {
      t.clock.advance(3_600_000);
      expectSuccess(await t.request('GET', `${api}/auth/me`, { headers: { cookie } }));
    }
    t.clock.advance(3_600_000);
    expectError(await t.request('GET', `${api}/auth/me`, { headers: { cookie } }), 401, 'UNAUTHORIZED');
  });

  it('is replaced when its browser signs in again: the old token stops working', async () => {
    const first = await startSession(t.systemContext(), t.admin, 'passkey');
    const second = await startSession(t.systemContext(), t.admin, 'passkey', first.token);
    const name = sessionCookieName(t.config);
    expect(second.token).not.toBe(first.token);
    expectError(await t.request('GET', `${api}/auth/me`, { headers: { cookie: `${name}=${first.token}` } }), 401, 'UNAUTHORIZED');
    expectSuccess(await t.request('GET', `${api}/auth/me`, { headers: { cookie: `${name}=${second.token}` } }));
  });

  it("of a disabled user is refused at the next request, and an enabled user's works again", async () => {
    const { user } = await t.userWithToken(20, ['content:read']);
    const cookie = await sessionCookieFor(t, user.id);
    expectSuccess(await t.request('GET', `${api}/auth/me`, { headers: { cookie } }));
    expectSuccess(await t.request('POST', `${api}/admin/users/${user.id}/disable`, { token: t.adminToken }));
    expectError(await t.request('GET', `${api}/auth/me`, { headers: { cookie } }), 401, 'UNAUTHORIZED');
    expectSuccess(await t.request('POST', `${api}/admin/users/${user.id}/enable`, { token: t.adminToken }));
    expectSuccess(await t.request('GET', `${api}/auth/me`, { headers: { cookie } }));
  });
});

describe('POST /auth/logout', () => {
  it('ends the session and clears the cookie', async () => {
    const cookie = await sessionCookieFor(t, t.admin.id);
    const response = await t.request('POST', `${api}/auth/logout`, { headers: { cookie, origin: 'http://localhost:3000' } });
    expect(expectSuccess(response)).toEqual({ success: true });
    expect(response.headers.getSetCookie()).toEqual([expect.stringMatching(/^folio_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/)]);
    expectError(await t.request('GET', `${api}/auth/me`, { headers: { cookie } }), 401, 'UNAUTHORIZED');
  });

  it('refuses a cross-origin request carrying the cookie, and the session lives on', async () => {
    const cookie = await sessionCookieFor(t, t.admin.id);
    const refused = expectError(await t.request('POST', `${api}/auth/logout`, { headers: { cookie, origin: 'https://evil.example' } }), 403, 'FORBIDDEN');
    expect(refused.details.reason).toBe('origin');
    expectSuccess(await t.request('GET', `${api}/auth/me`, { headers: { cookie } }));
  });

  it('answers a bearer caller the same, ending nothing', async () => {
    expect(expectSuccess(await t.request('POST', `${api}/auth/logout`, { token: t.adminToken }))).toEqual({ success: true });
    expectSuccess(await t.request('GET', `${api}/auth/me`, { token: t.adminToken }));
  });
});

describe('a session on /mcp', () => {
  it('drives an MCP client with the role full access: tools/list and tools/call', async () => {
    const socket = await serveMcp(t);
    try {
      const cookie = await sessionCookieFor(t, t.admin.id);
      const client = await socket.connectWith({ cookie });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('schema_create_collection');
      const created = await client.callTool({ name: 'schema_create_collection', arguments: { slug: 'mcp_notes', label: 'Notes' } });
      expect(created.isError).toBeFalsy();
      const listed = await client.callTool({ name: 'schema_list_collections', arguments: {} });
      expect(JSON.stringify(listed.content)).toContain('mcp_notes');
    } finally {
      await socket.close();
    }
  });

  it('refuses a cross-origin call carrying only the cookie', async () => {
    const cookie = await sessionCookieFor(t, t.admin.id);
    const response = await t.request('POST', `${api}/mcp`, {
      headers: { cookie, origin: 'https://evil.example', accept: 'application/json' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(response.status).toBe(403);
  });
});
