import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withCliContext } from '../src/cli/context.ts';
import { createEntry } from '../src/content/operations.ts';
import { runOperation } from '../src/core/operation.ts';
import { pruneAuditLog } from '../src/plugins/audit-log/plugin.ts';
import { createCollection, expectCreated } from './support/content.ts';
import { expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';
import { serveMcp } from './support/mcp.ts';
import { tinyPng, uploadMedia } from './support/media.ts';
import { createPluginTestApp } from './support/plugins.ts';
import { sessionCookieFor } from './support/sessions.ts';

const api = '/_cms/api';
const events = `${api}/plugins/audit-log/events`;

describe('the audit log', () => {
  let t: TestApp;
  let editor: { user: { id: string }; token: string };
  beforeAll(async () => {
    t = await createPluginTestApp();
    editor = await t.userWithToken(40, ['content:read', 'content:write', 'media:write']);
    await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }]);
  });
  afterAll(() => t.close());

  const read = async (query: string) => expectSuccess(await t.request('GET', `${events}?${query}`, { token: t.adminToken }));
  const createPost = async (title: string, options: { token?: string; headers?: Record<string, string> } = { token: t.adminToken }) =>
    expectCreated(await t.request('POST', `${api}/content/posts`, { ...options, body: { data: { title } } })).item;

  it('records a REST change with who, what, which resource, when and the token used', async () => {
    const before = t.clock.now().toISOString();
    const post = await createPost('Audited', { token: editor.token });
    const { items } = await read(`resourceId=${post.id}`);
    const tokens = expectSuccess(await t.request('GET', `${api}/admin/tokens?userId=${editor.user.id}`, { token: t.adminToken })).items;
    expect(items).toEqual([
      {
        id: expect.any(String),
        at: before,
        action: 'content.saved',
        resource: { type: 'entry', id: post.id },
        actor: { kind: 'user', id: editor.user.id, email: expect.stringContaining('@example.com') },
        credential: { type: 'token', id: tokens[0].id },
        details: { collection: 'posts', slug: 'audited', locale: 'en', status: 'draft', created: true },
      },
    ]);
  });

  it('records publications, deletions, uploads and sign-ins through a session', async () => {
    const cookie = await sessionCookieFor(t, t.admin.id);
    const [signIn] = (await read(`action=user.signed_in&actorId=${t.admin.id}`)).items;
    expect(signIn).toMatchObject({ resource: { type: 'user', id: t.admin.id }, credential: { type: 'session' }, details: { method: 'passkey' } });
    const post = await createPost('Through a session', { headers: { cookie } });
    expectSuccess(await t.request('POST', `${api}/content/posts/${post.id}/publish`, { headers: { cookie } }));
    expectSuccess(await t.request('DELETE', `${api}/content/posts/${post.id}`, { headers: { cookie } }));
    const { items } = await read(`resourceType=entry&resourceId=${post.id}`);
    expect(items.map((item: { action: string }) => item.action)).toEqual(['content.deleted', 'content.published', 'content.saved']);
    expect(items.every((item: { credential: { type: string; id: string } }) => item.credential.type === 'session' && item.credential.id === signIn.credential.id)).toBe(true);
    const media = await uploadMedia(t, await tinyPng('#123'), { filename: 'audited.png' });
    expectSuccess(await t.request('DELETE', `${api}/media/${media.id}`, { token: t.adminToken }));
    const mediaEvents = (await read(`resourceType=media&resourceId=${media.id}`)).items;
    expect(mediaEvents.map((item: { action: string }) => item.action)).toEqual(['media.deleted', 'media.uploaded']);
    expect(mediaEvents[1].details).toMatchObject({ filename: 'audited.png', mimeType: 'image/png' });
  });

  it('records MCP and CLI actions alike', async () => {
    const socket = await serveMcp(t);
    try {
      const client = await socket.connect(editor.token);
      const result = await client.callTool({ name: 'content_create', arguments: { collection: 'posts', data: { title: 'By MCP' } } });
      expect(result.isError).toBeFalsy();
    } finally {
      await socket.close();
    }
    const byMcp = (await read(`actorId=${editor.user.id}&action=content.saved`)).items.find((item: { details: { slug: string } }) => item.details.slug === 'by-mcp');
    expect(byMcp).toMatchObject({ actor: { kind: 'user', id: editor.user.id }, credential: { type: 'token' } });

    const created = await withCliContext({ databaseUrl: t.database.url, mediaDir: '/tmp/folio-test-media' }, (ctx) =>
      runOperation(createEntry, ctx, () => ({ collection: 'posts', data: { title: 'By the CLI' } })),
    );
    const [byCli] = (await read(`resourceId=${created.item.id}`)).items;
    expect(byCli).toMatchObject({ action: 'content.saved', actor: { kind: 'system', id: null, email: null }, credential: null });
  });

  it('filters by time and pages, newest first', async () => {
    t.clock.advance(1000);
    const since = t.clock.now().toISOString();
    const titles = ['Page A', 'Page B', 'Page C'];
    for (const title of titles) {
      await createPost(title);
      t.clock.advance(1000);
    }
    const first = await read(`since=${encodeURIComponent(since)}&action=content.saved&actorId=${t.admin.id}&limit=2`);
    expect(first.items.map((item: { details: { slug: string } }) => item.details.slug)).toEqual(['page-c', 'page-b']);
    const second = await read(`since=${encodeURIComponent(since)}&action=content.saved&actorId=${t.admin.id}&limit=2&cursor=${first.nextCursor}`);
    expect(second.items.map((item: { details: { slug: string } }) => item.details.slug)).toEqual(['page-a']);
    expect(second.nextCursor).toBeUndefined();
    const until = new Date(Date.parse(since) + 500).toISOString().replace('Z', '+00:00');
    expect((await read(`since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}&actorId=${t.admin.id}`)).items.map((item: { details: { slug: string } }) => item.details.slug)).toEqual(['page-a']);
  });

  it('refuses bad filters with a 400 naming them', async () => {
    expect(issuePaths(await t.request('GET', `${events}?limit=0`, { token: t.adminToken }))).toEqual(['limit']);
    expect(issuePaths(await t.request('GET', `${events}?limit=101`, { token: t.adminToken }))).toEqual(['limit']);
    expect(issuePaths(await t.request('GET', `${events}?action=content.exploded`, { token: t.adminToken }))).toEqual(['action']);
    expect(issuePaths(await t.request('GET', `${events}?resourceType=planet`, { token: t.adminToken }))).toEqual(['resourceType']);
    expect(issuePaths(await t.request('GET', `${events}?since=yesterday`, { token: t.adminToken }))).toEqual(['since']);
    expect(issuePaths(await t.request('GET', `${events}?cursor=bm90IGpzb24`, { token: t.adminToken }))).toEqual(['cursor']);
  });

  it('keeps records for the configured number of days', async () => {
    const old = await createPost('Old news');
    expectSuccess(await t.request('PUT', `${api}/plugins/audit-log/settings`, { token: t.adminToken, body: { retentionDays: 2 } }));
    t.clock.advance(2 * 86_400_000 + 1);
    const recent = await createPost('Recent news');
    expect(await pruneAuditLog(t.systemContext())).toBeGreaterThan(0);
    expect((await read(`resourceId=${old.id}`)).items).toEqual([]);
    expect((await read(`resourceId=${recent.id}`)).items).toHaveLength(1);
  });

  it('records nothing while disabled', async () => {
    expectSuccess(await t.request('POST', `${api}/plugins/audit-log/disable`, { token: t.adminToken }));
    const post = await createPost('Unrecorded');
    expectSuccess(await t.request('POST', `${api}/plugins/audit-log/enable`, { token: t.adminToken }));
    expect((await read(`resourceId=${post.id}`)).items).toEqual([]);
  });

  it('answers 401 without a token and 403 without admin', async () => {
    expectError(await t.request('GET', events), 401, 'UNAUTHORIZED');
    expect(expectError(await t.request('GET', events, { token: editor.token }), 403, 'FORBIDDEN').details.requiredScope).toBe('admin');
  });
});
