import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';
import { wordpressSites } from './support/wordpress-sites.ts';

describe('Import: probe', () => {
  let t: TestApp;
  let sites: http.Server;
  let origin: string;
  const probe = (body: unknown, token: string | null = t.adminToken) => t.request('POST', `${api}/import/probe`, { token: token ?? undefined, body });

  beforeAll(async () => {
    sites = wordpressSites();
    await new Promise<void>((resolve) => sites.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(sites.address() as AddressInfo).port}`;
    t = await createTestApp({ OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true' });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => sites.close(resolve));
  });

  it('finds a self-hosted WordPress through /wp-json/ with its public counts, and suggests its export file', async () => {
    const answer = expectSuccess(await probe({ url: `${origin}/pretty` }));
    expect(answer).toMatchObject({
      platform: 'wordpress',
      sourceId: 'legacy-rest',
      confidence: 'definite',
      detected: { title: 'Pretty permalinks', hosting: 'self-hosted', counts: { posts: 12, pages: 3, media: 40 } },
      suggestedAction: { action: 'upload-export', message: expect.stringMatching(/Tools → Export.*drafts/s) },
    });
  });

  it('falls back to ?rest_route=/ for plain permalinks', async () => {
    const answer = expectSuccess(await probe({ url: `${origin}/plain/` }));
    expect(answer).toMatchObject({ platform: 'wordpress', detected: { title: 'Plain permalinks', apiRoot: `${origin}/plain/?rest_route=/`, counts: { posts: 12, pages: 3, media: 40 } } });
  });

  it('suggests a file upload for a site no source knows', async () => {
    expect(expectSuccess(await probe({ url: `${origin}/static/` }))).toMatchObject({ platform: 'unknown', sourceId: null, suggestedAction: { action: 'upload-file' } });
  });

  it('refuses what is not a URL (400) and needs an admin (401, 403)', async () => {
    for (const body of [{ url: 'not a url' }, { url: 'ftp://example.com/' }, {}, { url: 42 }]) {
      const response = await probe(body);
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(issuePaths(response)).toContain('url');
    }
    const editor = (await t.userWithToken(40, ['content:read', 'content:write', 'media:write'])).token;
    expectError(await probe({ url: `${origin}/pretty` }, null), 401, 'UNAUTHORIZED');
    expectError(await probe({ url: `${origin}/pretty` }, editor), 403, 'FORBIDDEN');
  });

  it('refuses a private address when the deployment does not allow them (400), before any request', async () => {
    const guarded = await createTestApp();
    try {
      const response = await guarded.request('POST', `${api}/import/probe`, { token: guarded.adminToken, body: { url: `${origin}/pretty` } });
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.details.issues[0]).toMatchObject({ path: 'url', message: expect.stringMatching(/not a public address/) });
    } finally {
      await guarded.close();
    }
  });
});
