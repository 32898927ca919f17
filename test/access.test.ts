import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookieName, startSession } from '../src/auth/sessions.ts';
import { api, createCollection } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, type TestApp } from './support/harness.ts';

/**
 * Access rules as operations declare them: the public when `publicRead` is on, the role minima of
 * content, and credentials resolved by a list of resolvers with the CSRF check for ambient ones.
 */
let sessionCookie: string;
let t: TestApp;
let published: { id: string; slug: string };
let staged: { id: string };
let draft: { id: string; slug: string };

async function setPublicRead(value: boolean) {
  expectSuccess(await t.request('POST', `${api}/settings`, { token: t.adminToken, body: { publicRead: value } }));
}

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://cms.example.com' });
  const { token } = await startSession(t.systemContext(), t.admin, 'passkey');
  sessionCookie = `${sessionCookieName(t.config)}=${token}`;
  const session = { cookie: sessionCookie };
  expectSuccess(await t.request('POST', `${api}/settings`, { headers: session, body: { locales: ['en'] } }));
  await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }], { supports: ['drafts', 'revisions'] });
  const create = async (body: Record<string, unknown>) => {
    const response = await t.request('POST', `${api}/content/posts`, { headers: session, body });
    expect(response.status).toBe(201);
    return response.body.data.item;
  };
  published = await create({ data: { title: 'Live' }, status: 'published', slug: 'live' });
  const toStage = await create({ data: { title: 'Old title' }, status: 'published', slug: 'staged' });
  expectSuccess(await t.request('PUT', `${api}/content/posts/${toStage.id}`, { headers: session, body: { data: { title: 'Unpublished words' } } }));
  staged = toStage;
  draft = await create({ data: { title: 'Secret draft' }, slug: 'secret' });
});
afterAll(() => t.close());

describe('the public, while publicRead is off', () => {
  it('is refused with 401', async () => {
    expectError(await t.request('GET', `${api}/content/posts`), 401, 'UNAUTHORIZED');
    expectError(await t.request('GET', `${api}/content/posts/${published.id}`), 401, 'UNAUTHORIZED');
  });
});

describe('the public, while publicRead is on', () => {
  beforeAll(() => setPublicRead(true));
  afterAll(() => setPublicRead(false));

  it('lists published entries with their live values only', async () => {
    const page = expectSuccess(await t.request('GET', `${api}/content/posts`));
    const byId = new Map(page.items.map((item: { id: string }) => [item.id, item]));
    expect([...byId.keys()].sort()).toEqual([published.id, staged.id].sort());
    const stagedItem = byId.get(staged.id) as { data: { title: string }; liveData?: unknown };
    expect(stagedItem.data.title).toBe('Old title');
    expect(stagedItem.liveData).toBeUndefined();
    expect(JSON.stringify(page)).not.toContain('Unpublished words');
    expect(JSON.stringify(page)).not.toContain('Secret draft');
  });

  it('reads a published entry, and gets 404 for a draft as if it did not exist', async () => {
    expect(expectSuccess(await t.request('GET', `${api}/content/posts/${staged.id}`)).item.data.title).toBe('Old title');
    expectError(await t.request('GET', `${api}/content/posts/${draft.id}`), 404, 'NOT_FOUND');
    expectError(await t.request('GET', `${api}/content/posts/${draft.slug}`), 404, 'NOT_FOUND');
  });

  it('cannot ask for drafts, the trash, revisions or compare, nor write', async () => {
    expectError(await t.request('GET', `${api}/content/posts?status=draft`), 401, 'UNAUTHORIZED');
    expectError(await t.request('GET', `${api}/content/posts/trash`), 401, 'UNAUTHORIZED');
    expectError(await t.request('GET', `${api}/content/posts/${published.id}/revisions`), 401, 'UNAUTHORIZED');
    expectError(await t.request('GET', `${api}/content/posts/${published.id}/compare`), 401, 'UNAUTHORIZED');
    expectError(await t.request('POST', `${api}/content/posts`, { body: { data: { title: 'Spam' } } }), 401, 'UNAUTHORIZED');
  });

  it('reads the settings a site shows, without the publicRead switch, and nothing else of the administration', async () => {
    const settings = expectSuccess(await t.request('GET', `${api}/settings`));
    expect(settings).toMatchObject({ siteTitle: 'Folio', locales: ['en'] });
    expect(settings).not.toHaveProperty('publicRead');
    expect(expectSuccess(await t.request('GET', `${api}/settings`, { token: t.adminToken })).publicRead).toBe(true);
    for (const path of ['/schema', '/schema/collections', '/admin/users', '/admin/tokens']) {
      expectError(await t.request('GET', `${api}${path}`), 401, 'UNAUTHORIZED');
    }
    expectError(await t.request('POST', `${api}/settings`, { body: { siteTitle: 'Taken over' } }), 401, 'UNAUTHORIZED');
    expectError(await t.request('POST', `${api}/taxonomies`, { body: { name: 'spam', label: 'Spam' } }), 401, 'UNAUTHORIZED');
  });
});

describe('the public, once publicRead is turned off again', () => {
  it('is refused at once', async () => {
    expectSuccess(await t.request('GET', `${api}/settings`, { token: t.adminToken }));
    expectError(await t.request('GET', `${api}/settings`), 401, 'UNAUTHORIZED');
    expectError(await t.request('GET', `${api}/content/posts`), 401, 'UNAUTHORIZED');
  });
});

describe('role minima declared on operations', () => {
  it('refuses a Subscriber the drafts view with 403 naming the role, over REST and MCP', async () => {
    const reader = await t.userWithToken(10, ['content:read']);
    const refused = expectError(await t.request('GET', `${api}/content/posts?status=draft`, { token: reader.token }), 403, 'FORBIDDEN');
    expect(refused.details.requiredRole).toBe(20);
    expectError(await t.request('GET', `${api}/content/posts/trash`, { token: reader.token }), 403, 'FORBIDDEN');
    const list = expectSuccess(await t.request('GET', `${api}/content/posts?status=published`, { token: reader.token }));
    expect(list.items).toHaveLength(2);
    const rpc = await t.request('POST', `${api}/mcp`, {
      token: reader.token,
      headers: { accept: 'application/json' },
      body: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'content_list', arguments: { collection: 'posts', status: 'draft' } } },
    });
    expect(rpc.body).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32600, message: 'Insufficient role: requires Contributor' } });
  });
});

describe('ambient credentials (session cookies)', () => {
  const session = { get cookie() { return sessionCookie; } };

  it('are refused with 403 on a write from a foreign origin, and nothing is written', async () => {
    const response = await t.request('POST', `${api}/content/posts`, { headers: { ...session, origin: 'https://evil.example' }, body: { data: { title: 'Forged' } } });
    expect(expectError(response, 403, 'FORBIDDEN').details.reason).toBe('origin');
    const all = expectSuccess(await t.request('GET', `${api}/content/posts?limit=100`, { headers: session }));
    expect(JSON.stringify(all)).not.toContain('Forged');
  });

  it('work from Folio own origin, without an Origin, and for reads from anywhere', async () => {
    const own = await t.request('POST', `${api}/content/posts`, { headers: { ...session, origin: 'https://cms.example.com' }, body: { data: { title: 'Mine' } } });
    expect(own.status).toBe(201);
    const noOrigin = await t.request('POST', `${api}/content/posts`, { headers: session, body: { data: { title: 'Script' } } });
    expect(noOrigin.status).toBe(201);
    expectSuccess(await t.request('GET', `${api}/content/posts`, { headers: { ...session, origin: 'https://evil.example' } }));
  });

  it('a bad one is the one 401', async () => {
    expectError(await t.request('GET', `${api}/content/posts`, { headers: { cookie: `${sessionCookieName(t.config)}=forged` } }), 401, 'UNAUTHORIZED');
  });
});

describe('a token without the scope while publicRead is on', () => {
  beforeAll(() => setPublicRead(true));
  afterAll(() => setPublicRead(false));

  it('reads as the public does', async () => {
    const other = (await t.userWithToken(10, ['media:read'])).token;
    const page = expectSuccess(await t.request('GET', `${api}/content/posts`, { token: other }));
    expect(JSON.stringify(page)).not.toContain('Secret draft');
  });
});
