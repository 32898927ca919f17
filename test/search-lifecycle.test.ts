import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEntry as createEntryOperation, updateEntry } from '../src/content/operations.ts';
import { EntryListeners } from '../src/content/listeners.ts';
import { runOperation } from '../src/core/operation.ts';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { createTestApp, expectSuccess, type TestApp } from './support/harness.ts';
import { testJobRunner } from './support/jobs.ts';

/**
 * The index stays in step with every write, in the writer's transaction (issue 11): each life-cycle
 * operation, the processes that write without HTTP (CLI, scheduler), and the schema changes that
 * change what is indexed.
 */
describe('search index through the life of an entry', () => {
  let t: TestApp;
  const request = (method: string, path: string, body?: unknown) => t.request(method, `${api}${path}`, { token: t.adminToken, body });
  const ok = async (method: string, path: string, body?: unknown) => expectSuccess(await request(method, path, body));

  /** Titles found for `q`: `published` as readers search, `draft` the working values editors search. */
  async function found(q: string): Promise<{ published: string[]; draft: string[] }> {
    const titlesOf = async (status: string) => {
      const response = await request('GET', `/search?q=${encodeURIComponent(q)}&status=${status}&limit=50`);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return (response.body.results as { title: string }[]).map((result) => result.title).sort();
    };
    return { published: await titlesOf('published'), draft: await titlesOf('draft') };
  }
  const stats = async () => (await ok('GET', '/search/stats')).items as { collection: string; entries: number; documents: number }[];

  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'posts', [{ slug: 'title', type: 'string', searchable: true }, { slug: 'body', type: 'text', searchable: true }, { slug: 'note', type: 'string' }], {
      supports: ['drafts', 'revisions', 'scheduling', 'search'],
    });
  });
  afterAll(() => t.close());

  it('follows create, publish, staged drafts, discard, unpublish, trash, restore and permanent delete', async () => {
    const entry = await createEntry(t, 'posts', { data: { title: 'Lighthouse keeper', body: 'A lonely lamp' } });
    expect(await found('lighthouse')).toEqual({ published: [], draft: ['Lighthouse keeper'] });
    await ok('POST', `/content/posts/${entry.id}/publish`);
    expect(await found('lighthouse')).toEqual({ published: ['Lighthouse keeper'], draft: ['Lighthouse keeper'] });
    // A staged draft: readers keep finding the live values, editors the working ones.
    await ok('PUT', `/content/posts/${entry.id}`, { data: { title: 'Harbour master', body: 'A busy quay' } });
    expect(await found('lighthouse')).toEqual({ published: ['Lighthouse keeper'], draft: [] });
    expect(await found('harbour')).toEqual({ published: [], draft: ['Harbour master'] });
    await ok('POST', `/content/posts/${entry.id}/discard-draft`);
    expect(await found('harbour')).toEqual({ published: [], draft: [] });
    expect(await found('lighthouse')).toEqual({ published: ['Lighthouse keeper'], draft: ['Lighthouse keeper'] });
    await ok('PUT', `/content/posts/${entry.id}`, { data: { title: 'Harbour master' } });
    await ok('POST', `/content/posts/${entry.id}/publish`);
    expect(await found('harbour')).toEqual({ published: ['Harbour master'], draft: ['Harbour master'] });
    expect(await found('lighthouse')).toEqual({ published: [], draft: [] });
    await ok('POST', `/content/posts/${entry.id}/unpublish`);
    expect(await found('harbour')).toEqual({ published: [], draft: ['Harbour master'] });
    await ok('PUT', `/content/posts/${entry.id}`, { data: {}, status: 'published' });
    await ok('DELETE', `/content/posts/${entry.id}`);
    expect(await found('harbour')).toEqual({ published: [], draft: [] });
    await ok('POST', `/content/posts/${entry.id}/restore`);
    expect(await found('harbour')).toEqual({ published: ['Harbour master'], draft: ['Harbour master'] });
    await ok('DELETE', `/content/posts/${entry.id}`);
    await ok('DELETE', `/content/posts/${entry.id}/permanent`);
    expect(await found('harbour')).toEqual({ published: [], draft: [] });
    expect((await t.db.kysely.selectFrom('search_documents').select('entry_id').where('entry_id', '=', entry.id).execute()).length).toBe(0);
  });

  it('follows duplicate, revision restore, schedule and unschedule, and the scheduler publishing', async () => {
    const entry = await createEntry(t, 'posts', { data: { title: 'Windmill', body: 'Sails turning' }, status: 'published' });
    const copy = expectCreated(await request('POST', `/content/posts/${entry.id}/duplicate`)).item;
    expect(await found('windmill')).toEqual({ published: ['Windmill'], draft: ['Windmill', 'Windmill (Copy)'] });
    await ok('PUT', `/content/posts/${entry.id}`, { data: { title: 'Watermill' } });
    const { items: revisions } = await ok('GET', `/content/posts/${entry.id}/revisions`);
    const first = revisions.at(-1);
    await ok('POST', `/revisions/${first.id}/restore`);
    expect(await found('watermill')).toEqual({ published: [], draft: [] });
    expect((await found('windmill')).draft).toEqual(['Windmill', 'Windmill (Copy)']);

    await ok('POST', `/content/posts/${copy.id}/schedule`, { scheduledAt: new Date(t.clock.now().getTime() + 60_000).toISOString() });
    expect((await found('copy')).published).toEqual([]);
    await ok('DELETE', `/content/posts/${copy.id}/schedule`);
    await ok('POST', `/content/posts/${copy.id}/schedule`, { scheduledAt: new Date(t.clock.now().getTime() + 60_000).toISOString() });
    t.clock.advance(61_000);
    const runner = testJobRunner(t);
    expect(await runner.runDue()).toBe(1);
    await runner.stop();
    expect((await found('copy')).published).toEqual(['Windmill (Copy)']);
  });

  it('is kept by writers without HTTP too (the CLI acts through a context with no listeners of its own)', async () => {
    const ctx = { ...t.systemContext(), entryListeners: EntryListeners.of() };
    const { item } = await runOperation(createEntryOperation, ctx, () => ({ collection: 'posts', data: { title: 'Console entry' }, status: 'published' as const }));
    expect((await found('console')).published).toEqual(['Console entry']);
    await runOperation(updateEntry, ctx, () => ({ collection: 'posts', id: item.id, data: { title: 'Terminal entry' } }));
    expect(await found('terminal')).toEqual({ published: [], draft: ['Terminal entry'] });
  });

  it('follows a field becoming searchable or not, and a searchable field deleted', async () => {
    const entry = await createEntry(t, 'posts', { data: { title: 'Orchard', note: 'pruning apples' }, status: 'published' });
    expect((await found('pruning')).published).toEqual([]);
    await ok('PATCH', '/schema/collections/posts/fields/note', { searchable: true });
    expect((await found('pruning')).published).toEqual(['Orchard']);
    await ok('PATCH', '/schema/collections/posts/fields/note', { searchable: false });
    expect((await found('pruning')).published).toEqual([]);
    await ok('PATCH', '/schema/collections/posts/fields/body', { searchable: false });
    await ok('PATCH', '/schema/collections/posts/fields/body', { searchable: true });
    expect((await found('sails')).published).toEqual(['Windmill', 'Windmill (Copy)']);
    await ok('DELETE', '/schema/collections/posts/fields/body');
    expect((await found('sails')).published).toEqual([]);
    expect((await ok('GET', `/content/posts/${entry.id}`)).item.data.title).toBe('Orchard');
  });

  it('follows search leaving and joining supports, and the collection going', async () => {
    await createCollection(t, 'pages', [{ slug: 'title', type: 'string', searchable: true }], { supports: ['search'] });
    await createEntry(t, 'pages', { data: { title: 'Lonely page' }, status: 'published' });
    expect((await stats()).find((item) => item.collection === 'pages')).toEqual({ collection: 'pages', entries: 1, documents: 1 });
    await ok('PATCH', '/schema/collections/pages', { supports: [] });
    expect((await found('lonely')).published).toEqual([]);
    expect((await stats()).map((item) => item.collection)).not.toContain('pages');
    await ok('PATCH', '/schema/collections/pages', { supports: ['search'] });
    expect((await found('lonely')).published).toEqual(['Lonely page']);
    await ok('DELETE', '/schema/collections/pages?force=true');
    expect((await found('lonely')).published).toEqual([]);
    expect(await t.db.kysely.selectFrom('search_title_keys').select('entry_id').where('title_key', 'like', 'lonely%').execute()).toEqual([]);
  });
});
