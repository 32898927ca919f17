import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../src/core/roles.ts';
import { api, createCollection, createEntry } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';

/** `POST /content/:collection/bulk`: one action on many entries, each answered on its own (issue 31, the list's selection). */
describe('bulk actions on entries', () => {
  let t: TestApp;
  let contributor: string;
  let author: string;
  let readOnly: string;
  const bulk = (body: unknown, token: string | null = t.adminToken, collection = 'posts') => t.request('POST', `${api}/content/${collection}/bulk`, { token: token ?? undefined, body });
  const drafts = async (count: number, token = t.adminToken) => {
    const ids: string[] = [];
    for (let index = 0; index < count; index++) ids.push((await createEntry(t, 'posts', { data: { title: `Entry ${index}` } }, token)).id);
    return ids;
  };
  const statusOf = async (id: string) => expectSuccess(await t.request('GET', `${api}/content/posts/${id}`, { token: t.adminToken })).item.status;
  const trashIds = async () => (expectSuccess(await t.request('GET', `${api}/content/posts/trash?limit=100`, { token: t.adminToken })).items as { id: string }[]).map((item) => item.id);

  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }]);
    contributor = (await t.userWithToken(roles.contributor, ['content:read', 'content:write'])).token;
    author = (await t.userWithToken(roles.author, ['content:read', 'content:write'])).token;
    readOnly = (await t.userWithToken(roles.editor, ['content:read'])).token;
  });
  afterAll(() => t.close());

  it('publishes and unpublishes every entry named, answering each in order', async () => {
    const ids = await drafts(3);
    expect(expectSuccess(await bulk({ action: 'publish', ids })).items).toEqual(ids.map((id) => ({ id, ok: true })));
    for (const id of ids) expect(await statusOf(id)).toBe('published');
    const published = expectSuccess(await t.request('GET', `${api}/content/posts?status=published&limit=100`, { token: t.adminToken })).items.map((item: { id: string }) => item.id);
    expect(published).toEqual(expect.arrayContaining(ids));
    expect(expectSuccess(await bulk({ action: 'unpublish', ids }, author)).items).toEqual(ids.map((id) => ({ id, ok: true })));
    for (const id of ids) expect(await statusOf(id)).toBe('draft');
  });

  it('trashes, restores and deletes for good', async () => {
    const ids = await drafts(3);
    expect(expectSuccess(await bulk({ action: 'trash', ids }, contributor)).items).toEqual(ids.map((id) => ({ id, ok: true })));
    expect(await trashIds()).toEqual(expect.arrayContaining(ids));
    expect(expectSuccess(await bulk({ action: 'restore', ids: ids.slice(0, 2) }, contributor)).items).toEqual(ids.slice(0, 2).map((id) => ({ id, ok: true })));
    expect(await statusOf(ids[0]!)).toBe('draft');
    expect(await trashIds()).not.toContain(ids[0]);
    expect(expectSuccess(await bulk({ action: 'delete', ids: [ids[2]!] })).items).toEqual([{ id: ids[2], ok: true }]);
    expectError(await t.request('GET', `${api}/content/posts/${ids[2]}`, { token: t.adminToken }), 404, 'NOT_FOUND');
    expect(await trashIds()).not.toContain(ids[2]);
  });

  it('refuses an id on its own and goes on with the others', async () => {
    const [live, kept] = await drafts(2);
    const { items } = expectSuccess(await bulk({ action: 'trash', ids: [live, '01NOSUCHENTRY000000000000', kept] }));
    expect(items[0]).toEqual({ id: live, ok: true });
    expect(items[1]).toMatchObject({ id: '01NOSUCHENTRY000000000000', ok: false, error: { code: 'NOT_FOUND' } });
    expect(items[1].error.message).toEqual(expect.any(String));
    expect(items[2]).toEqual({ id: kept, ok: true });
    // Deleting for good needs the trash first: an entry outside it is refused as its own endpoint refuses it.
    const [outside] = await drafts(1);
    const deleted = expectSuccess(await bulk({ action: 'delete', ids: [outside, live] })).items;
    expect(deleted[0]).toMatchObject({ id: outside, ok: false, error: { code: 'VALIDATION_ERROR' } });
    expect(deleted[1]).toEqual({ id: live, ok: true });
    expect(await statusOf(outside!)).toBe('draft');
  });

  it('refuses publishing per entry to a Contributor, whose drafts stay drafts, as the single endpoint does', async () => {
    const ids = await drafts(2, contributor);
    const { items } = expectSuccess(await bulk({ action: 'publish', ids }, contributor));
    expect(items).toEqual(ids.map((id) => ({ id, ok: false, error: { code: 'FORBIDDEN', message: expect.stringContaining('Author') } })));
    for (const id of ids) expect(await statusOf(id)).toBe('draft');
    expectError(await t.request('POST', `${api}/content/posts/${ids[0]}/publish`, { token: contributor }), 403, 'FORBIDDEN');
    expectError(await t.request('POST', `${api}/content/posts`, { token: contributor, body: { data: { title: 'Live at once' }, status: 'published' } }), 403, 'FORBIDDEN');
    expectError(await t.request('PUT', `${api}/content/posts/${ids[0]}`, { token: contributor, body: { status: 'published' } }), 403, 'FORBIDDEN');
    // Saving without a status stays a Contributor's right.
    expectSuccess(await t.request('PUT', `${api}/content/posts/${ids[0]}`, { token: contributor, body: { data: { title: 'Still a draft' } } }));
    expect(expectSuccess(await bulk({ action: 'publish', ids }, author)).items.every((item: { ok: boolean }) => item.ok)).toBe(true);
  });

  it('names the field of bad input', async () => {
    const [id] = await drafts(1);
    expect(issuePaths(await bulk({ action: 'archive', ids: [id] }))).toEqual(['action']);
    expect(issuePaths(await bulk({ ids: [id] }))).toEqual(['action']);
    expect(issuePaths(await bulk({ action: 'trash', ids: [] }))).toEqual(['ids']);
    expect(issuePaths(await bulk({ action: 'trash' }))).toEqual(['ids']);
    expect(issuePaths(await bulk({ action: 'trash', ids: Array.from({ length: 101 }, (_, index) => `id-${index}`) }))).toEqual(['ids']);
    expect(issuePaths(await bulk({ action: 'trash', ids: [''] }))[0]).toMatch(/^ids/);
    expect(await statusOf(id!)).toBe('draft');
    expectError(await bulk({ action: 'trash', ids: [id] }, t.adminToken, 'nowhere'), 404, 'NOT_FOUND');
  });

  it('needs a credential (401) and content:write (403)', async () => {
    const [id] = await drafts(1);
    expectError(await bulk({ action: 'trash', ids: [id] }, null), 401, 'UNAUTHORIZED');
    expect(expectError(await bulk({ action: 'trash', ids: [id] }, readOnly), 403, 'FORBIDDEN').details).toMatchObject({ requiredScope: 'content:write' });
    expect(await statusOf(id!)).toBe('draft');
  });
});
