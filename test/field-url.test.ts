import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createEntry, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, type TestApp } from './support/harness.ts';
import { serveMcp, type McpSocket } from './support/mcp.ts';

/** The `url` field type (docs/decisions/0041), over REST and MCP. */
describe('url fields', () => {
  let t: TestApp;
  const request = (method: string, path: string, body?: unknown) => t.request(method, `${api}${path}`, { token: t.adminToken, body });
  const addField = async (collection: string, field: Record<string, unknown>) => expectCreated(await request('POST', `/schema/collections/${collection}/fields`, field)).item;
  const entryCount = async (collection: string) => (expectSuccess(await request('GET', `/content/${collection}?limit=100`)).items as unknown[]).length;

  beforeAll(async () => {
    t = await createTestApp();
    expectCreated(await request('POST', '/schema/collections', { slug: 'links', label: 'Links', supports: ['drafts', 'search'] }));
    await addField('links', { slug: 'title', label: 'Title', type: 'string', searchable: true });
    const website = await addField('links', { slug: 'website', label: 'Website', type: 'url', searchable: true });
    expect(website).toMatchObject({ slug: 'website', type: 'url', required: false, unique: false });
  });
  afterAll(() => t.close());

  it('stores a good URL and reads it back as given', async () => {
    const url = 'https://example.com/docs/getting-started?lang=en&page=2#install';
    const created = await createEntry(t, 'links', { data: { title: 'Docs', website: url } });
    expect(created.data.website).toBe(url);
    expect(expectSuccess(await request('GET', `/content/links/${created.id}`)).item.data.website).toBe(url);
  });

  it('takes mailto: and tel: links, trims the value and stores the standard form of the URL', async () => {
    for (const [given, stored] of [
      ['mailto:hello@example.com?subject=Hi%20there', 'mailto:hello@example.com?subject=Hi%20there'],
      ['tel:+1-555-0100', 'tel:+1-555-0100'],
      ['  HTTPS://Example.COM  ', 'https://example.com/'],
      ['https://de.wikipedia.org/wiki/Köln', 'https://de.wikipedia.org/wiki/K%C3%B6ln'],
    ]) {
      const item = await createEntry(t, 'links', { data: { website: given } });
      expect(expectSuccess(await request('GET', `/content/links/${item.id}`)).item.data.website, given).toBe(stored);
    }
  });

  it('refuses what is not an absolute http(s), mailto: or tel: URL with a 400 naming the field, saving nothing', async () => {
    const before = await entryCount('links');
    for (const [bad, message] of [
      ['javascript:alert(1)', 'Must be an absolute URL'],
      ['not a url', 'Must be an absolute URL'],
      ['/about/team', 'Must be an absolute URL'],
      ['example.com/page', 'Must be an absolute URL'],
      ['data:text/html,<script>alert(1)</script>', 'Must be an absolute URL'],
      ['mailto:', 'Must be an absolute URL'],
      ['https://example.com/two words', 'Must not contain spaces'],
      [`https://example.com/${'a'.repeat(3000)}`, 'Must be at most 2048 characters'],
      [42, 'Must be a string'],
    ] as const) {
      const error = expectError(await request('POST', '/content/links', { data: { website: bad } }), 400, 'VALIDATION_ERROR');
      expect(error.details.issues, String(bad)).toEqual([{ path: 'data.website', message: expect.stringContaining(message) }]);
    }
    expect(await entryCount('links')).toBe(before);
  });

  it('keeps required, unique and pattern as text fields do, and sorts lists by the URL', async () => {
    expectCreated(await request('POST', '/schema/collections', { slug: 'sites', label: 'Sites' }));
    await addField('sites', { slug: 'home', label: 'Home', type: 'url', required: true, unique: true, validation: { pattern: '^https://' } });
    const missing = expectError(await request('POST', '/content/sites', { data: { home: '' } }), 400, 'VALIDATION_ERROR');
    expect(missing.details.issues).toEqual([{ path: 'data.home', message: 'Required' }]);
    const plain = expectError(await request('POST', '/content/sites', { data: { home: 'http://example.com/' } }), 400, 'VALIDATION_ERROR');
    expect(plain.details.issues).toEqual([{ path: 'data.home', message: 'Must match the pattern ^https://' }]);

    for (const home of ['https://b.example.com/', 'https://a.example.com/']) await createEntry(t, 'sites', { data: { home } });
    // Another spelling of the same address is the same value.
    const again = expectError(await request('POST', '/content/sites', { data: { home: 'HTTPS://A.example.com' } }), 400, 'VALIDATION_ERROR');
    expect(again.details.issues).toEqual([{ path: 'data.home', message: expect.stringContaining('Must be unique') }]);

    const sorted = expectSuccess(await request('GET', '/content/sites?orderBy=home&order=asc')).items as { data: { home: string } }[];
    expect(sorted.map((item) => item.data.home)).toEqual(['https://a.example.com/', 'https://b.example.com/']);
  });

  it('is searchable by the words of its host and path, decoded, on both engines alike', async () => {
    await createEntry(t, 'links', { data: { title: 'Reading list', website: 'https://handbook.example.org/gardening/café' }, status: 'published' });
    for (const q of ['gardening', 'handbook', 'cafe', 'handbook gardening']) {
      const response = await t.request('GET', `${api}/search?q=${encodeURIComponent(q)}`, { token: t.adminToken });
      expect(response.status).toBe(200);
      expect(response.body.results.map((result: { title: string }) => result.title), q).toEqual(['Reading list']);
    }
  });

  it('may become a text field, not a string field (at most 500 characters); a text field may not become a url field', async () => {
    await addField('links', { slug: 'source', label: 'Source', type: 'url' });
    expectError(await request('PATCH', '/schema/collections/links/fields/source', { type: 'string' }), 400, 'SCHEMA_ERROR');
    expect(expectSuccess(await request('PATCH', '/schema/collections/links/fields/source', { type: 'text' })).item.type).toBe('text');
    const back = expectError(await request('PATCH', '/schema/collections/links/fields/source', { type: 'url' }), 400, 'SCHEMA_ERROR');
    expect(back.message).toContain('url fields hold absolute http(s), mailto: or tel: URLs');
  });

  it('is a string in the TypeScript of GET /schema', async () => {
    const source = (await t.request('GET', `${api}/schema?format=typescript`, { token: t.adminToken })).body as string;
    expect(source).toContain('  website?: string | null;');
    expect(source).toContain('  home: string;');
  });

  it('is a field type of the OpenAPI document and of GET /schema/field-types', async () => {
    const document = (await t.request('GET', `${api}/openapi.json`)).body;
    expect(document.components.schemas.Field.properties.type.enum).toContain('url');
    const createBody = document.paths[`${api}/schema/collections/{slug}/fields`].post.requestBody.content['application/json'].schema;
    expect(createBody.properties.type.enum).toContain('url');
    const types = expectSuccess(await request('GET', '/schema/field-types')).items as { type: string }[];
    // Described as string is, but for the widget: the same rules, unique, sortable and searchable, and may become text.
    const string = types.find((item) => item.type === 'string');
    expect(types.find((item) => item.type === 'url')).toEqual({ ...string, type: 'url', widget: 'url-input' });
  });

  describe('over MCP', () => {
    let socket: McpSocket;
    let client: Client;
    beforeAll(async () => {
      socket = await serveMcp(t);
      client = await socket.connect(t.adminToken);
    });
    afterAll(() => socket.close());

    it('creates a url field with schema_create_field and checks its values in content_create', async () => {
      const tools = (await client.listTools()).tools;
      expect(tools.find((tool) => tool.name === 'schema_create_field')!.description).toContain('url');
      const field = await client.callTool({ name: 'schema_create_field', arguments: { collection: 'links', slug: 'feed', label: 'Feed', type: 'url' } });
      expect(field.isError).toBeUndefined();
      expect(field.structuredContent).toMatchObject({ item: { slug: 'feed', type: 'url' } });

      const good = await client.callTool({ name: 'content_create', arguments: { collection: 'links', data: { feed: 'https://example.com/feed.xml' } } });
      expect(good.structuredContent).toMatchObject({ item: { data: { feed: 'https://example.com/feed.xml' } } });
      const bad = await client.callTool({ name: 'content_create', arguments: { collection: 'links', data: { feed: 'javascript:alert(1)' } } });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain('data.feed');
    });
  });
});
