import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, createEntry } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';

/**
 * What the panel reads besides the entries themselves: the collections with their fields for anyone
 * who writes entries (GET /content), counts by status, and a list of the entries one person created.
 */
let t: TestApp;
let contributor: { user: { id: string }; token: string };
let subscriber: { token: string };

beforeAll(async () => {
  t = await createTestApp();
  await createCollection(t, 'posts', [{ slug: 'title', type: 'string', required: true }, { slug: 'body', type: 'portableText' }]);
  await createCollection(t, 'pages', [{ slug: 'title', type: 'string' }], { label: 'Pages', labelSingular: 'Page' });
  contributor = await t.userWithToken(20, ['content:read', 'content:write']);
  subscriber = await t.userWithToken(10, ['content:read']);
  await createEntry(t, 'posts', { data: { title: 'Live' }, status: 'published' });
  await createEntry(t, 'posts', { data: { title: 'Mine' } }, contributor.token);
  await createEntry(t, 'posts', { data: { title: 'Theirs' } });
  const trashed = await createEntry(t, 'posts', { data: { title: 'Gone' } });
  expectSuccess(await t.request('DELETE', `${api}/content/posts/${trashed.id}`, { token: t.adminToken }));
});
afterAll(() => t.close());

describe('GET /content', () => {
  it('lists the collections with their fields to a Contributor, who may not read the schema', async () => {
    expectError(await t.request('GET', `${api}/schema/collections`, { token: contributor.token }), 403, 'FORBIDDEN');
    const { items } = expectSuccess(await t.request('GET', `${api}/content`, { token: contributor.token }));
    expect(items.map((item: { slug: string }) => item.slug)).toEqual(['pages', 'posts']);
    expect(items[0]).toMatchObject({ label: 'Pages', labelSingular: 'Page', supports: ['drafts', 'revisions'] });
    expect(items[1].fields.map((field: { slug: string; type: string }) => [field.slug, field.type])).toEqual([
      ['title', 'string'],
      ['body', 'portableText'],
    ]);
    expect(items[1].counts).toBeUndefined();
  });

  it('counts entries by status with counts=true, the trash apart', async () => {
    const { items } = expectSuccess(await t.request('GET', `${api}/content?counts=true`, { token: contributor.token }));
    expect(items.map((item: { slug: string; counts: unknown }) => [item.slug, item.counts])).toEqual([
      ['pages', { draft: 0, published: 0, scheduled: 0, trash: 0 }],
      ['posts', { draft: 2, published: 1, scheduled: 0, trash: 1 }],
    ]);
  });

  it('refuses a bad flag (400), no credential (401) and a Subscriber (403)', async () => {
    expect(issuePaths(await t.request('GET', `${api}/content?counts=maybe`, { token: t.adminToken }))).toEqual(['counts']);
    expectError(await t.request('GET', `${api}/content`), 401, 'UNAUTHORIZED');
    const refused = expectError(await t.request('GET', `${api}/content`, { token: subscriber.token }), 403, 'FORBIDDEN');
    expect(refused.details).toMatchObject({ requiredRole: 20 });
  });
});

describe('GET /content/:collection?author=', () => {
  it('lists the entries a user created', async () => {
    const mine = expectSuccess(await t.request('GET', `${api}/content/posts?status=draft&author=${contributor.user.id}`, { token: contributor.token }));
    expect(mine.items.map((entry: { data: { title: string } }) => entry.data.title)).toEqual(['Mine']);
    const admins = expectSuccess(await t.request('GET', `${api}/content/posts?author=${t.admin.id}`, { token: contributor.token }));
    expect(admins.items.map((entry: { data: { title: string } }) => entry.data.title).sort()).toEqual(['Live', 'Theirs']);
  });

  it('is for Contributors and up, who may see who wrote what (403), and takes a sensible id (400)', async () => {
    expectError(await t.request('GET', `${api}/content/posts?author=${t.admin.id}`, { token: subscriber.token }), 403, 'FORBIDDEN');
    expect(issuePaths(await t.request('GET', `${api}/content/posts?author=${'x'.repeat(201)}`, { token: t.adminToken }))).toEqual(['author']);
  });
});
