import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';

const users = '/_cms/api/admin/users';
const unknownId = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

interface UserItem {
  id: string;
  email: string;
  name: string;
  role: number;
  disabled: boolean;
  createdAt: string;
  updatedAt: string;
}

const ok = expectSuccess;

/** Every page of a list, following nextCursor until it is absent. */
async function allPages(t: TestApp, query: string): Promise<{ pages: UserItem[][]; ids: string[] }> {
  const pages: UserItem[][] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const separator = query ? '&' : '';
    const url = `${users}?${query}${cursor ? `${separator}cursor=${encodeURIComponent(cursor)}` : ''}`;
    const data = ok(await t.request('GET', url, { token: t.adminToken }));
    pages.push(data.items);
    if (!('nextCursor' in data)) return { pages, ids: pages.flat().map((user) => user.id) };
    expect(typeof data.nextCursor).toBe('string');
    cursor = data.nextCursor;
  }
  throw new Error('pagination did not end');
}

describe('reading users', () => {
  let t: TestApp;
  let created: UserItem[];
  beforeAll(async () => {
    t = await createTestApp();
    created = [t.admin];
    for (const role of [10, 20, 30, 40, 40, 50]) created.push((await t.userWithToken(role, ['content:read'])).user);
  });
  afterAll(() => t.close());

  it('returns a user by id with every field', async () => {
    const response = await t.request('GET', `${users}/${t.admin.id}`, { token: t.adminToken });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { item: t.admin } });
    const item = response.body.data.item;
    expect(Object.keys(item).sort()).toEqual(['createdAt', 'disabled', 'email', 'id', 'lastSignInAt', 'name', 'role', 'updatedAt']);
    expect(item.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(item.role).toBe(50);
    expect(item.disabled).toBe(false);
    expect(item.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(item.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // Made with a token, never signed in.
    expect(item.lastSignInAt).toBeNull();
  });

  it('lists every user in creation order with no nextCursor when all fit', async () => {
    const response = await t.request('GET', users, { token: t.adminToken });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data.items).toEqual(created);
    expect('nextCursor' in response.body.data).toBe(false);
  });

  it('pages through all users with limit=2, each seen exactly once', async () => {
    const { pages, ids } = await allPages(t, 'limit=2');
    expect(pages.map((page) => page.length)).toEqual([2, 2, 2, 1]);
    expect(ids).toEqual(created.map((user) => user.id));
    expect(new Set(ids).size).toBe(created.length);
  });

  it('ends without a nextCursor when the last page is exactly full', async () => {
    const { pages, ids } = await allPages(t, `limit=${created.length}`);
    expect(pages.map((page) => page.length)).toEqual([created.length]);
    expect(ids).toEqual(created.map((user) => user.id));
  });

  it('filters by role', async () => {
    for (const role of [10, 20, 30, 40, 50]) {
      const data = ok(await t.request('GET', `${users}?role=${role}`, { token: t.adminToken }));
      expect(data.items).toEqual(created.filter((user) => user.role === role));
      expect('nextCursor' in data).toBe(false);
    }
  });

  it('pages through a role filter', async () => {
    const extraEditor = (await t.userWithToken(40, ['content:read'])).user;
    created.push(extraEditor);
    const { pages, ids } = await allPages(t, 'role=40&limit=2');
    expect(pages.map((page) => page.length)).toEqual([2, 1]);
    expect(ids).toEqual(created.filter((user) => user.role === 40).map((user) => user.id));
  });

  it('refuses a malformed cursor with 400 naming cursor', async () => {
    const encoded = (value: string) => Buffer.from(value).toString('base64url');
    const cursors = ['not a cursor!', 'AAAA', encoded('{"id":1}'), encoded('[]'), encoded('["a","b"]'), encoded('[true]'), encoded('not json')];
    for (const cursor of cursors) {
      const response = await t.request('GET', `${users}?cursor=${encodeURIComponent(cursor)}`, { token: t.adminToken });
      expect({ cursor, paths: issuePaths(response) }).toEqual({ cursor, paths: ['cursor'] });
    }
  });

  it('refuses a limit outside 1-100 or not an integer', async () => {
    for (const limit of ['0', '101', '-1', '1.5', 'ten']) {
      const response = await t.request('GET', `${users}?limit=${limit}`, { token: t.adminToken });
      expect({ limit, paths: issuePaths(response) }).toEqual({ limit, paths: ['limit'] });
    }
    for (const limit of ['1', '100']) {
      const data = ok(await t.request('GET', `${users}?limit=${limit}`, { token: t.adminToken }));
      expect(data.items.length).toBe(Math.min(Number(limit), created.length));
    }
  });

  it('refuses a role that is not one of 10, 20, 30, 40, 50', async () => {
    for (const role of ['35', '0', '60', 'x']) {
      const response = await t.request('GET', `${users}?role=${role}`, { token: t.adminToken });
      expect({ role, paths: issuePaths(response) }).toEqual({ role, paths: ['role'] });
    }
  });

  it('answers 404 NOT_FOUND for an unknown user on every user endpoint', async () => {
    expectError(await t.request('GET', `${users}/${unknownId}`, { token: t.adminToken }), 404, 'NOT_FOUND');
    expectError(await t.request('GET', `${users}/no-such-user`, { token: t.adminToken }), 404, 'NOT_FOUND');
    expectError(await t.request('PATCH', `${users}/${unknownId}`, { token: t.adminToken, body: { name: 'Ghost' } }), 404, 'NOT_FOUND');
    expectError(await t.request('POST', `${users}/${unknownId}/enable`, { token: t.adminToken }), 404, 'NOT_FOUND');
    expectError(await t.request('POST', `${users}/${unknownId}/disable`, { token: t.adminToken }), 404, 'NOT_FOUND');
    const data = ok(await t.request('GET', users, { token: t.adminToken }));
    expect(data.items.map((user: UserItem) => user.id)).toEqual(created.map((user) => user.id));
  });
});

describe('searching users', () => {
  let t: TestApp;
  const named: Record<string, UserItem> = {};
  beforeAll(async () => {
    t = await createTestApp();
    const people: [key: string, email: string, name: string][] = [
      ['ada', 'ada.lovelace@analytical.example', 'Ada Lovelace'],
      ['grace', 'grace@navy.example', 'Grace HOPPER'],
      ['percent', 'percent@example.org', 'Growth 0%1 plan'],
      ['percentDecoy', 'decoy1@example.org', 'Growth 0 to 1 plan'],
      ['underscore', 'snake@example.org', 'snake_case fan'],
      ['underscoreDecoy', 'decoy2@example.org', 'snakeXcase fan'],
      ['backslash', 'slash@example.org', 'back\\slash'],
      ['backslashDecoy', 'decoy3@example.org', 'backslash'],
    ];
    for (const [key, email, name] of people) {
      const { user } = await t.userWithToken(key === 'grace' ? 40 : 10, ['content:read'], email);
      named[key] = ok(await t.request('PATCH', `${users}/${user.id}`, { token: t.adminToken, body: { name } })).item;
    }
  });
  afterAll(() => t.close());

  const search = async (text: string, extra = '') => {
    const data = ok(await t.request('GET', `${users}?search=${encodeURIComponent(text)}${extra}`, { token: t.adminToken }));
    return (data.items as UserItem[]).map((user) => user.id);
  };

  it('matches a substring of the name, ignoring case', async () => {
    expect(await search('lovelace')).toEqual([named.ada!.id]);
    expect(await search('hopper')).toEqual([named.grace!.id]);
    expect(await search('gRaCe h')).toEqual([named.grace!.id]);
  });

  it('matches a substring of the email, ignoring case', async () => {
    expect(await search('ANALYTICAL.EX')).toEqual([named.ada!.id]);
    expect(await search('@navy')).toEqual([named.grace!.id]);
    expect(await search('@example.org')).toEqual(
      ['percent', 'percentDecoy', 'underscore', 'underscoreDecoy', 'backslash', 'backslashDecoy'].map((key) => named[key]!.id),
    );
  });

  it('returns an empty list when nothing matches', async () => {
    const data = ok(await t.request('GET', `${users}?search=nobody-has-this`, { token: t.adminToken }));
    expect(data).toEqual({ items: [] });
  });

  it('matches % literally', async () => {
    expect(await search('0%1')).toEqual([named.percent!.id]);
    expect(await search('%')).toEqual([named.percent!.id]);
  });

  it('matches _ literally', async () => {
    expect(await search('snake_case')).toEqual([named.underscore!.id]);
    expect(await search('e_c')).toEqual([named.underscore!.id]);
  });

  it('matches a backslash literally', async () => {
    expect(await search('k\\s')).toEqual([named.backslash!.id]);
  });

  it('combines search with the role filter and with paging', async () => {
    expect(await search('grace', '&role=40')).toEqual([named.grace!.id]);
    expect(await search('grace', '&role=10')).toEqual([]);
    const first = ok(await t.request('GET', `${users}?search=decoy&limit=2`, { token: t.adminToken }));
    expect(first.items.map((user: UserItem) => user.id)).toEqual([named.percentDecoy!.id, named.underscoreDecoy!.id]);
    const second = ok(
      await t.request('GET', `${users}?search=decoy&limit=2&cursor=${encodeURIComponent(first.nextCursor)}`, { token: t.adminToken }),
    );
    expect(second.items.map((user: UserItem) => user.id)).toEqual([named.backslashDecoy!.id]);
    expect('nextCursor' in second).toBe(false);
  });
});

describe('access to user administration', () => {
  let t: TestApp;
  let editor: { user: UserItem; token: string };
  let target: UserItem;
  beforeAll(async () => {
    t = await createTestApp();
    editor = await t.userWithToken(40, ['content:read']);
    target = (await t.userWithToken(20, ['content:read'])).user;
  });
  afterAll(() => t.close());

  const endpoints = (): [method: string, path: string, body?: unknown][] => [
    ['GET', users],
    ['GET', `${users}/${target.id}`],
    ['PATCH', `${users}/${target.id}`, { name: 'Hacked', role: 50 }],
    ['POST', `${users}/${target.id}/disable`],
    ['POST', `${users}/${target.id}/enable`],
  ];

  it('refuses a request without a token with 401', async () => {
    for (const [method, path, body] of endpoints()) {
      expectError(await t.request(method, path, { body }), 401, 'UNAUTHORIZED');
    }
  });

  it('refuses a malformed or unknown token with 401', async () => {
    for (const authorization of ['Bearer ', 'Bearer not a token', 'Token abc', 'Bearer ec_pat_unknownunknownunknownunknownunknown']) {
      for (const [method, path, body] of endpoints()) {
        const response = await t.request(method, path, { body, headers: { authorization } });
        expect({ authorization, method, path, status: response.status }).toEqual({ authorization, method, path, status: 401 });
        expectError(response, 401, 'UNAUTHORIZED');
      }
    }
  });

  it('refuses a token without the admin scope with 403 naming admin', async () => {
    const holders = [editor, await t.userWithToken(50, ['content:read', 'content:write', 'schema:write'])];
    for (const holder of holders) {
      for (const [method, path, body] of endpoints()) {
        const error = expectError(await t.request(method, path, { token: holder.token, body }), 403, 'FORBIDDEN');
        expect(error.details.requiredScope).toBe('admin');
      }
    }
  });

  it('changes nothing when a write is refused for lack of scope', async () => {
    expectError(await t.request('PATCH', `${users}/${target.id}`, { token: editor.token, body: { name: 'Hacked', role: 50 } }), 403, 'FORBIDDEN');
    expectError(await t.request('POST', `${users}/${target.id}/disable`, { token: editor.token }), 403, 'FORBIDDEN');
    const after = ok(await t.request('GET', `${users}/${target.id}`, { token: t.adminToken }));
    expect(after.item).toEqual(target);
  });

  it('checks access before validating input', async () => {
    const error = expectError(await t.request('PATCH', `${users}/${target.id}`, { token: editor.token, body: { role: 35 } }), 403, 'FORBIDDEN');
    expect(error.details.requiredScope).toBe('admin');
    expectError(await t.request('GET', `${users}?limit=0`), 401, 'UNAUTHORIZED');
  });
});

describe('updating users', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const getUser = async (id: string): Promise<UserItem> => ok(await t.request('GET', `${users}/${id}`, { token: t.adminToken })).item;

  it('renames a user, bumping updatedAt, and a later read shows it', async () => {
    const { user } = await t.userWithToken(20, ['content:read']);
    t.clock.advance(5_000);
    const response = await t.request('PATCH', `${users}/${user.id}`, { token: t.adminToken, body: { name: 'Renamed Person' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: { item: { ...user, name: 'Renamed Person', updatedAt: t.clock.now().toISOString() } },
    });
    expect(response.body.data.item.updatedAt).not.toBe(user.updatedAt);
    expect(await getUser(user.id)).toEqual(response.body.data.item);
  });

  it('changes a role and a name together', async () => {
    const { user } = await t.userWithToken(10, ['content:read']);
    const item = ok(await t.request('PATCH', `${users}/${user.id}`, { token: t.adminToken, body: { name: 'Promoted', role: 40 } })).item;
    expect(item).toMatchObject({ id: user.id, email: user.email, name: 'Promoted', role: 40, disabled: false, createdAt: user.createdAt });
    expect(await getUser(user.id)).toEqual(item);
  });

  it('accepts every role value', async () => {
    const { user } = await t.userWithToken(10, ['content:read']);
    for (const role of [20, 30, 40, 50, 10]) {
      expect(ok(await t.request('PATCH', `${users}/${user.id}`, { token: t.adminToken, body: { role } })).item.role).toBe(role);
      expect((await getUser(user.id)).role).toBe(role);
    }
  });

  it('treats an empty body as no change', async () => {
    const { user } = await t.userWithToken(30, ['content:read']);
    const item = ok(await t.request('PATCH', `${users}/${user.id}`, { token: t.adminToken, body: {} })).item;
    expect(item).toEqual(user);
    expect(await getUser(user.id)).toEqual(user);
  });

  it('refuses bad bodies with 400 naming the path, and changes nothing', async () => {
    const { user } = await t.userWithToken(30, ['content:read']);
    const cases: [body: unknown, path: string][] = [
      [{ email: 'new@example.com' }, 'email'],
      [{ name: 'Fine', disabled: true }, 'disabled'],
      [{ role: 35 }, 'role'],
      [{ role: 60 }, 'role'],
      [{ role: '40' }, 'role'],
      [{ role: null }, 'role'],
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 42 }, 'name'],
      [{ name: null }, 'name'],
      [{ name: 'Fine', role: 35 }, 'role'],
    ];
    for (const [body, path] of cases) {
      const response = await t.request('PATCH', `${users}/${user.id}`, { token: t.adminToken, body });
      expect({ body, paths: issuePaths(response) }).toEqual({ body, paths: [path] });
    }
    const unknownKey = expectError(await t.request('PATCH', `${users}/${user.id}`, { token: t.adminToken, body: { email: 'x@example.com' } }), 400, 'VALIDATION_ERROR');
    expect(unknownKey.details.issues).toEqual([{ path: 'email', message: 'Unknown key' }]);
    expect(issuePaths(await t.request('PATCH', `${users}/${user.id}`, { token: t.adminToken, body: [] }))).toHaveLength(1);
    expect(await getUser(user.id)).toEqual(user);
  });

  it('lets an admin rename themselves', async () => {
    const item = ok(await t.request('PATCH', `${users}/${t.admin.id}`, { token: t.adminToken, body: { name: 'Head Admin' } })).item;
    expect(item.name).toBe('Head Admin');
    expect((await getUser(t.admin.id)).name).toBe('Head Admin');
  });

  it('refuses an admin changing their own role with 403 reason self, changing nothing', async () => {
    const before = await getUser(t.admin.id);
    for (const body of [{ role: 40 }, { role: 10 }, { name: 'Sneaky', role: 40 }]) {
      const error = expectError(await t.request('PATCH', `${users}/${t.admin.id}`, { token: t.adminToken, body }), 403, 'FORBIDDEN');
      expect(error.details.reason).toBe('self');
    }
    expect(await getUser(t.admin.id)).toEqual(before);
    expect((await t.request('GET', users, { token: t.adminToken })).status).toBe(200);
  });

  it('cuts a demoted user\'s token at once', async () => {
    const b = await t.userWithToken(50, ['admin']);
    expect((await t.request('GET', users, { token: b.token })).status).toBe(200);
    ok(await t.request('PATCH', `${users}/${b.user.id}`, { token: t.adminToken, body: { role: 40 } }));
    const error = expectError(await t.request('GET', users, { token: b.token }), 403, 'FORBIDDEN');
    expect(error.details.requiredScope).toBe('admin');
    const patched = await t.request('PATCH', `${users}/${t.admin.id}`, { token: b.token, body: { role: 10 } });
    expect(expectError(patched, 403, 'FORBIDDEN').details.requiredScope).toBe('admin');
    expect((await getUser(t.admin.id)).role).toBe(50);
    ok(await t.request('PATCH', `${users}/${b.user.id}`, { token: t.adminToken, body: { role: 50 } }));
    expect((await t.request('GET', users, { token: b.token })).status).toBe(200);
  });
});

describe('enabling and disabling users', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const getUser = async (id: string): Promise<UserItem> => ok(await t.request('GET', `${users}/${id}`, { token: t.adminToken })).item;
  const me = (token: string) => t.request('GET', '/_cms/api/auth/me', { token });

  it('disables a user: their token fails at once; enabling restores it', async () => {
    const { user, token } = await t.userWithToken(20, ['content:read']);
    expect((await me(token)).status).toBe(200);
    expect((await t.request('GET', '/_cms/api/settings', { token })).status).toBe(200);

    const disabled = await t.request('POST', `${users}/${user.id}/disable`, { token: t.adminToken });
    expect(disabled.status).toBe(200);
    expect(disabled.body.success).toBe(true);
    expect(disabled.body.data.item).toMatchObject({ id: user.id, email: user.email, name: user.name, role: 20, disabled: true });
    expectError(await me(token), 401, 'UNAUTHORIZED');
    expectError(await t.request('GET', '/_cms/api/settings', { token }), 401, 'UNAUTHORIZED');
    expect((await getUser(user.id)).disabled).toBe(true);
    const listed = ok(await t.request('GET', users, { token: t.adminToken })).items.find((item: UserItem) => item.id === user.id);
    expect(listed.disabled).toBe(true);

    const enabled = await t.request('POST', `${users}/${user.id}/enable`, { token: t.adminToken });
    expect(enabled.status).toBe(200);
    expect(enabled.body.data.item).toMatchObject({ id: user.id, role: 20, disabled: false });
    expect((await me(token)).status).toBe(200);
    expect((await t.request('GET', '/_cms/api/settings', { token })).status).toBe(200);
    expect((await getUser(user.id)).disabled).toBe(false);
  });

  it('is idempotent: disabling a disabled user or enabling an enabled one answers 200', async () => {
    const { user, token } = await t.userWithToken(10, ['content:read']);
    expect(ok(await t.request('POST', `${users}/${user.id}/enable`, { token: t.adminToken })).item.disabled).toBe(false);
    expect(ok(await t.request('POST', `${users}/${user.id}/disable`, { token: t.adminToken })).item.disabled).toBe(true);
    expect(ok(await t.request('POST', `${users}/${user.id}/disable`, { token: t.adminToken })).item.disabled).toBe(true);
    expectError(await me(token), 401, 'UNAUTHORIZED');
    expect(ok(await t.request('POST', `${users}/${user.id}/enable`, { token: t.adminToken })).item.disabled).toBe(false);
    expect((await me(token)).status).toBe(200);
  });

  it('keeps a disabled user editable by an admin', async () => {
    const { user } = await t.userWithToken(30, ['content:read']);
    ok(await t.request('POST', `${users}/${user.id}/disable`, { token: t.adminToken }));
    const item = ok(await t.request('PATCH', `${users}/${user.id}`, { token: t.adminToken, body: { name: 'Dormant', role: 20 } })).item;
    expect(item).toMatchObject({ name: 'Dormant', role: 20, disabled: true });
    expect(await getUser(user.id)).toEqual(item);
  });

  it('refuses an admin disabling themselves with 403 reason self', async () => {
    const error = expectError(await t.request('POST', `${users}/${t.admin.id}/disable`, { token: t.adminToken }), 403, 'FORBIDDEN');
    expect(error.details.reason).toBe('self');
    expect((await getUser(t.admin.id)).disabled).toBe(false);
    expect((await me(t.adminToken)).status).toBe(200);
  });

  it('refuses unknown keys in an action body', async () => {
    const { user } = await t.userWithToken(10, ['content:read']);
    const error = expectError(await t.request('POST', `${users}/${user.id}/disable`, { token: t.adminToken, body: { reason: 'spam' } }), 400, 'VALIDATION_ERROR');
    expect(error.details.issues).toEqual([{ path: 'reason', message: 'Unknown key' }]);
    expect((await getUser(user.id)).disabled).toBe(false);
  });
});

describe('keeping an enabled admin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const getUser = async (id: string, token = t.adminToken): Promise<UserItem> => ok(await t.request('GET', `${users}/${id}`, { token })).item;
  const enabledAdmins = async (token: string): Promise<string[]> =>
    (ok(await t.request('GET', `${users}?role=50`, { token })).items as UserItem[]).filter((user) => !user.disabled).map((user) => user.id);

  it('lets one admin disable another while an enabled admin remains, and enable them again', async () => {
    const b = await t.userWithToken(50, ['admin']);
    const disabled = ok(await t.request('POST', `${users}/${t.admin.id}/disable`, { token: b.token })).item;
    expect(disabled).toMatchObject({ id: t.admin.id, role: 50, disabled: true });
    expectError(await t.request('GET', users, { token: t.adminToken }), 401, 'UNAUTHORIZED');
    expect(await enabledAdmins(b.token)).toEqual([b.user.id]);

    // The only enabled admin now is B: B cannot remove themselves.
    expect(expectError(await t.request('POST', `${users}/${b.user.id}/disable`, { token: b.token }), 403, 'FORBIDDEN').details.reason).toBe('self');
    expect(expectError(await t.request('PATCH', `${users}/${b.user.id}`, { token: b.token, body: { role: 40 } }), 403, 'FORBIDDEN').details.reason).toBe('self');
    expect(await enabledAdmins(b.token)).toEqual([b.user.id]);

    ok(await t.request('POST', `${users}/${t.admin.id}/enable`, { token: b.token }));
    expect((await t.request('GET', users, { token: t.adminToken })).status).toBe(200);
    expect(await enabledAdmins(t.adminToken)).toEqual([t.admin.id, b.user.id]);
  });

  it('lets one admin demote another while an enabled admin remains', async () => {
    const c = await t.userWithToken(50, ['admin']);
    const item = ok(await t.request('PATCH', `${users}/${c.user.id}`, { token: t.adminToken, body: { role: 30 } })).item;
    expect(item.role).toBe(30);
    expect((await getUser(c.user.id)).role).toBe(30);
    expect(expectError(await t.request('GET', users, { token: c.token }), 403, 'FORBIDDEN').details.requiredScope).toBe('admin');
  });

  it('does not count a disabled admin as the one that must remain', async () => {
    const d = await t.userWithToken(50, ['admin']);
    ok(await t.request('POST', `${users}/${d.user.id}/disable`, { token: t.adminToken }));
    const demoted = ok(await t.request('PATCH', `${users}/${d.user.id}`, { token: t.adminToken, body: { role: 40 } })).item;
    expect(demoted).toMatchObject({ role: 40, disabled: true });
    expect(await getUser(d.user.id)).toEqual(demoted);
  });

  it('never leaves the site without an enabled admin when two admins remove each other at once', async () => {
    for (const action of ['demote', 'disable'] as const) {
      const x = await t.userWithToken(50, ['admin']);
      const y = await t.userWithToken(50, ['admin']);
      // Leave exactly two enabled admins, X and Y.
      for (const id of await enabledAdmins(t.adminToken)) {
        if (id !== t.admin.id && id !== x.user.id && id !== y.user.id) ok(await t.request('POST', `${users}/${id}/disable`, { token: t.adminToken }));
      }
      ok(await t.request('POST', `${users}/${t.admin.id}/disable`, { token: x.token }));
      expect(await enabledAdmins(x.token)).toEqual([x.user.id, y.user.id]);

      const remove = (actor: string, target: string) =>
        action === 'demote'
          ? t.request('PATCH', `${users}/${target}`, { token: actor, body: { role: 40 } })
          : t.request('POST', `${users}/${target}/disable`, { token: actor });
      const [xRemovesY, yRemovesX] = await Promise.all([remove(x.token, y.user.id), remove(y.token, x.user.id)]);
      const outcomes = [xRemovesY, yRemovesX];
      const successes = outcomes.filter((response) => response.status === 200);
      expect({ action, successes: successes.length }).toEqual({ action, successes: 1 });
      const refused = outcomes.find((response) => response.status !== 200)!;
      if (refused.status === 409) {
        expect(expectError(refused, 409, 'CONFLICT').details.reason).toBe('last_admin');
      } else {
        // The other request ran entirely first, so the loser was no longer an enabled admin when it arrived.
        expect([401, 403]).toContain(refused.status);
      }
      const survivor = xRemovesY.status === 200 ? x : y;
      expect(await enabledAdmins(survivor.token)).toEqual([survivor.user.id]);

      // Restore the first admin for the next round.
      ok(await t.request('POST', `${users}/${t.admin.id}/enable`, { token: survivor.token }));
    }
  });
});
