import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';
import { serveMcp } from './support/mcp.ts';
import { tinyPng, uploadMedia } from './support/media.ts';
import { typeScriptDiagnostics } from './support/typescript.ts';

/** An entry's SEO values (supports `seo`) over REST and MCP, in revisions and drafts, and the site's SEO defaults. */
describe('SEO fields', () => {
  let t: TestApp;
  let writer: string;
  let reader: string;
  const request = (method: string, path: string, body?: unknown, token: string | null = t.adminToken) => t.request(method, `${api}${path}`, { token: token ?? undefined, body });
  const unset = { title: null, description: null, canonical: null, noIndex: false, image: null };

  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }], { supports: ['drafts', 'revisions', 'seo'] });
    await createCollection(t, 'notes', [{ slug: 'title', type: 'string' }], { supports: ['revisions'] });
    writer = (await t.userWithToken(20, ['content:read', 'content:write'])).token;
    reader = (await t.userWithToken(10, ['content:read'])).token;
  });
  afterAll(() => t.close());

  it('creates, reads, updates one member, and clears', async () => {
    const seo = { title: 'Best pancakes', description: 'Fluffy, in ten minutes.', canonical: 'https://example.com/pancakes', noIndex: true };
    const created = await createEntry(t, 'posts', { data: { title: 'Pancakes' }, seo });
    expect(created.seo).toEqual({ ...seo, image: null });
    expect(expectSuccess(await request('GET', `/content/posts/${created.id}`)).item.seo).toEqual({ ...seo, image: null });

    const updated = expectSuccess(await request('PUT', `/content/posts/${created.id}`, { seo: { description: 'Fluffier.' } }, writer)).item;
    expect(updated.seo).toEqual({ ...seo, description: 'Fluffier.', image: null });
    // An update without seo leaves it as it is.
    expect(expectSuccess(await request('PUT', `/content/posts/${created.id}`, { data: { title: 'Pancakes!' } })).item.seo.description).toBe('Fluffier.');

    const cleared = expectSuccess(await request('PUT', `/content/posts/${created.id}`, { seo: { title: null, description: '', canonical: null, noIndex: false } })).item;
    expect(cleared.seo).toEqual(unset);
    const listed = expectSuccess(await request('GET', '/content/posts?limit=100')).items;
    expect(listed.find((item: { id: string }) => item.id === created.id).seo).toEqual(unset);
  });

  it('takes a media item as the image, and shows a deleted one as missing', async () => {
    const media = await uploadMedia(t, await tinyPng('#0a0'), { alt: 'Stack of pancakes' });
    const entry = await createEntry(t, 'posts', { data: { title: 'With image' }, seo: { image: media.id } });
    expect(entry.seo.image).toMatchObject({ id: media.id, url: expect.stringContaining('/_cms/api/media/file/'), width: 4, height: 3, alt: 'Stack of pancakes' });
    const external = expectSuccess(await request('PUT', `/content/posts/${entry.id}`, { seo: { image: { url: 'https://cdn.example.com/og.png', alt: 'Card' } } })).item;
    expect(external.seo.image).toEqual({ url: 'https://cdn.example.com/og.png', alt: 'Card' });
    expectSuccess(await request('PUT', `/content/posts/${entry.id}`, { seo: { image: media.id } }));
    expectSuccess(await request('DELETE', `/media/${media.id}`));
    expect(expectSuccess(await request('GET', `/content/posts/${entry.id}`)).item.seo.image).toEqual({ id: media.id, missing: true });
  });

  it("counts an SEO image among the media item's uses until it is cleared", async () => {
    const media = await uploadMedia(t, await tinyPng('#00a'), { alt: 'Card' });
    const usage = async () => expectSuccess(await request('GET', `/media/${media.id}/usage`));
    const entry = await createEntry(t, 'posts', { data: { title: 'Shared card' }, seo: { image: media.id } });
    expect(await usage()).toMatchObject({ total: 1, items: [{ id: entry.id, collection: 'posts', fields: ['_seo'] }] });
    expectSuccess(await request('PUT', `/content/posts/${entry.id}`, { seo: { image: null } }));
    expect(await usage()).toMatchObject({ total: 0, items: [] });
  });

  it('refuses bad input with a 400 naming the member', async () => {
    const entry = await createEntry(t, 'posts', { data: { title: 'Checked' } });
    expect(entry.seo).toEqual(unset);
    expect(issuePaths(await request('POST', '/content/posts', { data: { title: 'Long' }, seo: { title: 'x'.repeat(121) } }))).toEqual(['seo.title']);
    expect(issuePaths(await request('PUT', `/content/posts/${entry.id}`, { seo: { canonical: 'ftp://example.com/a' } }))).toEqual(['seo.canonical']);
    expect(issuePaths(await request('PUT', `/content/posts/${entry.id}`, { seo: { canonical: '/relative' } }))).toEqual(['seo.canonical']);
    expect(issuePaths(await request('PUT', `/content/posts/${entry.id}`, { seo: { description: 'x'.repeat(321) } }))).toEqual(['seo.description']);
    expect(issuePaths(await request('PUT', `/content/posts/${entry.id}`, { seo: { image: 'javascript:alert(1)' } }))).toEqual(['seo.image']);
    expect(issuePaths(await request('PUT', `/content/posts/${entry.id}`, { seo: { robots: 'noindex' } }))).toEqual(['seo.robots']);
    expect(issuePaths(await request('PUT', `/content/posts/${entry.id}`, { seo: { noIndex: 'yes' } }))).toEqual(['seo.noIndex']);
    expect(expectSuccess(await request('GET', `/content/posts/${entry.id}`)).item.seo).toEqual(unset);
  });

  it('refuses seo on a collection without seo support, and shows none there', async () => {
    const note = await createEntry(t, 'notes', { data: { title: 'Plain' } });
    expect(note).not.toHaveProperty('seo');
    expect(issuePaths(await request('POST', '/content/notes', { data: { title: 'x' }, seo: { title: 'No' } }))).toEqual(['seo']);
    expect(issuePaths(await request('PUT', `/content/notes/${note.id}`, { seo: { noIndex: true } }))).toEqual(['seo']);
  });

  it('answers 401 without a token and 403 without the write scope', async () => {
    const entry = await createEntry(t, 'posts', { data: { title: 'Guarded' } });
    expectError(await request('PUT', `/content/posts/${entry.id}`, { seo: { title: 'Nope' } }, null), 401, 'UNAUTHORIZED');
    expectError(await request('PUT', `/content/posts/${entry.id}`, { seo: { title: 'Nope' } }, reader), 403, 'FORBIDDEN');
    expectError(await request('GET', `/content/posts/${entry.id}`, undefined, null), 401, 'UNAUTHORIZED');
  });

  it('stages SEO changes with the draft: readers see the live values until publish, discard brings them back', async () => {
    const entry = await createEntry(t, 'posts', { data: { title: 'Live' }, seo: { title: 'Live title' }, status: 'published' });
    const staged = expectSuccess(await request('PUT', `/content/posts/${entry.id}`, { seo: { title: 'Draft title' } })).item;
    expect(staged.seo.title).toBe('Draft title');
    expect(expectSuccess(await request('GET', `/content/posts/${entry.id}`, undefined, reader)).item.seo.title).toBe('Live title');
    expect(expectSuccess(await request('GET', `/content/posts/${entry.id}/compare`))).toMatchObject({ hasChanges: true, draft: { title: 'Live' }, published: { title: 'Live' } });
    expect(expectSuccess(await request('POST', `/content/posts/${entry.id}/discard-draft`)).item.seo.title).toBe('Live title');
    expect(expectSuccess(await request('GET', `/content/posts/${entry.id}/compare`)).hasChanges).toBe(false);
    expectSuccess(await request('PUT', `/content/posts/${entry.id}`, { seo: { title: 'Second draft' } }));
    expectSuccess(await request('POST', `/content/posts/${entry.id}/publish`));
    expect(expectSuccess(await request('GET', `/content/posts/${entry.id}`, undefined, reader)).item.seo.title).toBe('Second draft');
  });

  it('keeps SEO values in revisions; a restore brings them back', async () => {
    const entry = await createEntry(t, 'posts', { data: { title: 'Versioned' }, seo: { title: 'First', noIndex: true } });
    expectSuccess(await request('PUT', `/content/posts/${entry.id}`, { seo: { title: 'Second', noIndex: false } }));
    const revisions = expectSuccess(await request('GET', `/content/posts/${entry.id}/revisions`)).items;
    const first = revisions.find((revision: { seo: { title: string } }) => revision.seo.title === 'First');
    expect(first.seo).toEqual({ ...unset, title: 'First', noIndex: true });
    expect(first.data).toEqual({ title: 'Versioned' });
    const restored = expectSuccess(await request('POST', `/revisions/${first.id}/restore`)).item;
    expect(restored.seo).toEqual({ ...unset, title: 'First', noIndex: true });
  });

  it('copies the SEO values into a duplicate', async () => {
    const entry = await createEntry(t, 'posts', { data: { title: 'Original' }, seo: { description: 'Shared words' } });
    const copy = expectCreated(await request('POST', `/content/posts/${entry.id}/duplicate`)).item;
    expect(copy.seo.description).toBe('Shared words');
  });

  it('round-trips through the MCP content tools', async () => {
    const socket = await serveMcp(t);
    try {
      const client = await socket.connect(t.adminToken);
      type Item = { item: { id: string; seo: Record<string, unknown> } };
      const created = (await client.callTool({ name: 'content_create', arguments: { collection: 'posts', data: { title: 'Via MCP' }, seo: { title: 'Agent title' } } })).structuredContent as Item;
      expect(created.item.seo).toEqual({ ...unset, title: 'Agent title' });
      const updated = (await client.callTool({ name: 'content_update', arguments: { collection: 'posts', id: created.item.id, seo: { canonical: 'https://example.com/mcp' } } })).structuredContent as Item;
      expect(updated.item.seo).toEqual({ ...unset, title: 'Agent title', canonical: 'https://example.com/mcp' });
      const got = (await client.callTool({ name: 'content_get', arguments: { collection: 'posts', id: created.item.id } })).structuredContent as Item;
      expect(got.item.seo).toEqual(updated.item.seo);
      const refused = await client.callTool({ name: 'content_update', arguments: { collection: 'posts', id: created.item.id, seo: { canonical: 'mailto:a@b.c' } } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('seo.canonical');
    } finally {
      await socket.close();
    }
  });

  it('describes seo in the OpenAPI document', async () => {
    const document = (await t.request('GET', `${api}/openapi.json`)).body;
    expect(document.components.schemas.EntrySeo.properties).toHaveProperty('canonical');
    expect(JSON.stringify(document.components.schemas.ContentItem.properties.seo)).toContain('EntrySeo');
  });

  it('types seo in the TypeScript export of collections that support it', async () => {
    const source = (await t.request('GET', `${api}/schema?format=typescript`, { token: t.adminToken })).body as string;
    expect(source).toContain('export interface EntrySeo {');
    const [posts, notes] = ['Posts', 'Notes'].map((name) => source.slice(source.indexOf(`export interface ${name} {`)).split('\n}')[0]!);
    expect(posts).toContain('  seo: EntrySeo;');
    expect(notes).not.toContain('seo');
    expect(typeScriptDiagnostics(source)).toEqual([]);
  });

  describe('site defaults', () => {
    it('has defaults, merges members, resets with null, and refuses bad values', async () => {
      const media = await uploadMedia(t, await tinyPng('#a0a'));
      expect(expectSuccess(await request('GET', '/settings')).seo).toEqual({ titleSeparator: '–', defaultImage: null });
      expect(expectSuccess(await request('POST', '/settings', { seo: { titleSeparator: '|' } })).seo).toEqual({ titleSeparator: '|', defaultImage: null });
      expect(expectSuccess(await request('POST', '/settings', { seo: { defaultImage: media.id } })).seo).toEqual({ titleSeparator: '|', defaultImage: media.id });
      expect(expectSuccess(await request('GET', '/settings', undefined, reader)).seo).toEqual({ titleSeparator: '|', defaultImage: media.id });
      expect(issuePaths(await request('POST', '/settings', { seo: { defaultImage: 'not a url' } }))).toEqual(['seo.defaultImage']);
      expect(issuePaths(await request('POST', '/settings', { seo: { titleSeparator: '' } }))).toEqual(['seo.titleSeparator']);
      expect(issuePaths(await request('POST', '/settings', { seo: { separator: '-' } }))).toEqual(['seo.separator']);
      expectError(await request('POST', '/settings', { seo: { titleSeparator: '·' } }, writer), 403, 'FORBIDDEN');
      expect(expectSuccess(await request('POST', '/settings', { seo: null })).seo).toEqual({ titleSeparator: '–', defaultImage: null });
    });

    it('are readable by the public once publicRead is on', async () => {
      expectError(await request('GET', '/settings', undefined, null), 401, 'UNAUTHORIZED');
      expectSuccess(await request('POST', '/settings', { publicRead: true, seo: { titleSeparator: '•' } }));
      try {
        expect(expectSuccess(await request('GET', '/settings', undefined, null)).seo).toEqual({ titleSeparator: '•', defaultImage: null });
      } finally {
        expectSuccess(await request('POST', '/settings', { publicRead: false, seo: null }));
      }
    });
  });
});
