import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, issuePaths, type TestApp } from './support/harness.ts';

describe('HTTP plumbing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BODY_LIMIT: '2kb' });
  });
  afterAll(() => t.close());

  it('answers the health check without a credential', async () => {
    const response = await t.request('GET', '/_cms/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { status: 'ok', database: 'ok' } });
  });

  it('ignores a stale credential on public endpoints', async () => {
    const response = await t.request('GET', '/_cms/api/health', { token: 'ec_pat_stale' });
    expect(response.status).toBe(200);
  });

  it('wraps unknown API routes in the 404 envelope', async () => {
    const error = expectError(await t.request('GET', '/_cms/api/no-such-thing'), 404, 'NOT_FOUND');
    expect(error.details).toEqual({});
  });

  it('answers a wrong method with 405 and the allowed methods', async () => {
    const response = await t.request('DELETE', '/_cms/api/settings', { token: t.adminToken });
    const error = expectError(response, 405, 'METHOD_NOT_ALLOWED');
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(error.details.allowed).toEqual(['GET', 'HEAD', 'POST']);
  });

  it('refuses a body over the limit with 413 and writes nothing', async () => {
    const response = await t.request('POST', '/_cms/api/settings', { token: t.adminToken, body: { tagline: 'x'.repeat(4096) } });
    expectError(response, 413, 'PAYLOAD_TOO_LARGE');
    const settings = await t.request('GET', '/_cms/api/settings', { token: t.adminToken });
    expect(settings.body.data.tagline).toBe('');
  });

  it('refuses malformed JSON with 400 naming the problem', async () => {
    const response = await t.request('POST', '/_cms/api/settings', {
      token: t.adminToken,
      rawBody: '{"siteTitle": ',
      headers: { 'content-type': 'application/json' },
    });
    const error = expectError(response, 400, 'VALIDATION_ERROR');
    expect(error.details.issues[0].message).toMatch(/Malformed JSON/);
  });

  it('refuses a non-JSON content type with 415', async () => {
    const response = await t.request('POST', '/_cms/api/settings', {
      token: t.adminToken,
      rawBody: 'siteTitle=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('accepts an action call with no body and no content type', async () => {
    const response = await t.request('POST', `/_cms/api/admin/users/${t.admin.id}/enable`, { token: t.adminToken });
    expect(response.status).toBe(200);
    expect(response.body.data.item.id).toBe(t.admin.id);
  });

  it('refuses unknown keys in an action body', async () => {
    const response = await t.request('POST', `/_cms/api/admin/users/${t.admin.id}/enable`, { token: t.adminToken, body: { force: true } });
    const error = expectError(response, 400, 'VALIDATION_ERROR');
    expect(error.details.issues).toEqual([{ path: 'force', message: 'Unknown key' }]);
  });

  it('sets the same fixed headers on responses made outside the envelope', async () => {
    for (const path of ['/_cms/api/openapi.json', '/_cms/api/docs', '/elsewhere']) {
      const response = await t.request('GET', path);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('x-request-id'), path).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect((await t.request('GET', '/_cms/api/docs/swagger-ui.css')).headers.get('cache-control')).toBe('public, max-age=86400');
    expect((await t.request('GET', '/_cms/api/openapi.json')).headers.get('cache-control')).toBe('private, no-store');
  });

  it('sets security, caching and request-id headers', async () => {
    const response = await t.request('GET', '/_cms/api/settings', { token: t.adminToken, headers: { 'x-request-id': 'trace-123' } });
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-request-id')).toBe('trace-123');
    const generated = await t.request('GET', '/_cms/api/health');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses the NUL character anywhere in the input with 400, never 500', async () => {
    const cases: [string, string, unknown][] = [
      ['PATCH', `/_cms/api/admin/users/${t.admin.id}`, { name: 'a\u0000b' }],
      ['GET', '/_cms/api/admin/users?search=a%00', undefined],
      ['GET', '/_cms/api/admin/users/a%00', undefined],
    ];
    for (const [method, path, body] of cases) {
      const error = expectError(await t.request(method, path, { token: t.adminToken, body }), 400, 'VALIDATION_ERROR');
      expect(error.details.issues[0].message).toMatch(/NUL/);
    }
  });

  it('refuses input nested deeper than 200 levels with 400, never 500', async () => {
    // Written as text: serializing it here would exhaust the test's own stack.
    const deep = `{"name":${'['.repeat(900)}"leaf"${']'.repeat(900)}}`;
    const headers = { 'content-type': 'application/json' };
    const error = expectError(await t.request('PATCH', `/_cms/api/admin/users/${t.admin.id}`, { token: t.adminToken, rawBody: deep, headers }), 400, 'VALIDATION_ERROR');
    expect(error.details.issues[0].message).toMatch(/nest deeper than 200/);
    let shallow: unknown = 'leaf';
    for (let level = 0; level < 150; level++) shallow = [shallow];
    expectError(await t.request('PATCH', `/_cms/api/admin/users/${t.admin.id}`, { token: t.adminToken, body: { name: shallow } }), 400, 'VALIDATION_ERROR');
  });

  it('refuses a query parameter given twice with 400 naming it, never reading the first alone', async () => {
    expect(issuePaths(await t.request('GET', '/_cms/api/admin/users?limit=1&limit=50', { token: t.adminToken }))).toEqual(['limit']);
    expect((await t.request('GET', '/_cms/api/admin/users?limit=1', { token: t.adminToken })).status).toBe(200);
  });

  it('accepts several spaces after Bearer', async () => {
    expect((await t.request('GET', '/_cms/api/auth/me', { headers: { authorization: `Bearer   ${t.adminToken}` } })).status).toBe(200);
  });

  it('sends no CORS headers when no origin is configured', async () => {
    const response = await t.request('GET', '/_cms/api/health', { headers: { origin: 'https://evil.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS from configuration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CORS_ORIGINS: 'https://site.example,http://localhost:5173' });
  });
  afterAll(() => t.close());

  it('answers a preflight from an allowed origin', async () => {
    const response = await t.request('OPTIONS', '/_cms/api/settings', {
      headers: { origin: 'https://site.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://site.example');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('marks a simple request from an allowed origin', async () => {
    const response = await t.request('GET', '/_cms/api/health', { headers: { origin: 'http://localhost:5173' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('does not allow other origins', async () => {
    const response = await t.request('GET', '/_cms/api/health', { headers: { origin: 'https://evil.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('failures', () => {
  it('turns an unexpected failure into a 500 INTERNAL_ERROR with a request id and no internals', async () => {
    const t = await createTestApp();
    await t.db.close();
    const response = await t.request('GET', '/_cms/api/settings', { token: t.adminToken });
    const error = expectError(response, 500, 'INTERNAL_ERROR');
    expect(error.message).toBe('Internal server error');
    expect(error.details.requestId).toBe(response.headers.get('x-request-id'));
    expect(JSON.stringify(response.body)).not.toMatch(/at |sqlite|pool|select/i);
    await t.database.drop();
  });

  it('reports an unreachable database as 503 on the health check', async () => {
    const t = await createTestApp();
    await t.db.close();
    expectError(await t.request('GET', '/_cms/api/health'), 503, 'SERVICE_UNAVAILABLE');
    await t.database.drop();
  });
});
