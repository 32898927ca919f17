import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEntry as createEntryOperation } from '../src/content/operations.ts';
import { runOperation } from '../src/core/operation.ts';
import { openDatabase, type Db } from '../src/db/connection.ts';
import { createCollection, createEntry } from './support/content.ts';
import { createTestApp, expectError, type TestApp } from './support/harness.ts';

// Hot reads (a token's owner, the settings) may be served from memory. Whatever another process
// writes to the database (another server, the CLI) must still be seen on the very next request: on
// SQLite at once, on PostgreSQL once its notification has come (`arrived`, decisions/0052).
describe('reads served from memory stay exact', () => {
  let t: TestApp;
  let otherProcess: Db;
  beforeAll(async () => {
    t = await createTestApp();
    otherProcess = await openDatabase(t.config.database);
  });
  afterAll(async () => {
    await otherProcess.close();
    await t.close();
  });

  const arrived = () => t.db.changesArrived?.();

  // A token's first use records its last use (a write of this process); the second round of requests
  // is the one whose answer can stay in memory.
  async function useTwice(path: string, tokens: string[], status: number) {
    for (let round = 0; round < 2; round += 1) {
      for (const token of tokens) expect((await t.request('GET', path, { token })).status).toBe(status);
    }
  }

  it('sees a settings change written by another connection', async () => {
    const first = await t.request('GET', '/_cms/api/settings', { token: t.adminToken });
    expect(first.body.data.siteTitle).toBe('Folio');
    await otherProcess.kysely.insertInto('settings').values({ key: 'siteTitle', value: '"Elsewhere"', updated_at: new Date().toISOString() }).execute();
    await arrived();
    const second = await t.request('GET', '/_cms/api/settings', { token: t.adminToken });
    expect(second.body.data.siteTitle).toBe('Elsewhere');
  });

  it('closes public reading on the next request after another connection turns publicRead off', async () => {
    await t.request('POST', '/_cms/api/settings', { token: t.adminToken, body: { publicRead: true } });
    expect((await t.request('GET', '/_cms/api/settings')).status).toBe(200);
    expect((await t.request('GET', '/_cms/api/settings')).status).toBe(200);
    await otherProcess.kysely.updateTable('settings').set({ value: 'false' }).where('key', '=', 'publicRead').execute();
    await arrived();
    expectError(await t.request('GET', '/_cms/api/settings'), 401, 'UNAUTHORIZED');
    expectError(await t.request('GET', '/_cms/api/taxonomies'), 401, 'UNAUTHORIZED');
  });

  it('refuses a token on the next request after another connection disables its user or revokes it', async () => {
    const disabled = await t.userWithToken(20, ['content:read']);
    const revoked = await t.userWithToken(20, ['content:read']);
    await useTwice('/_cms/api/auth/me', [disabled.token, revoked.token], 200);
    await otherProcess.kysely.updateTable('users').set({ disabled: 1 }).where('id', '=', disabled.user.id).execute();
    await otherProcess.kysely.deleteFrom('api_tokens').where('user_id', '=', revoked.user.id).execute();
    await arrived();
    for (const { token } of [disabled, revoked]) expectError(await t.request('GET', '/_cms/api/auth/me', { token }), 401, 'UNAUTHORIZED');
  });

  it('sees a revoke made in this process with a RETURNING statement', async () => {
    const { user, token } = await t.userWithToken(20, ['content:read']);
    await useTwice('/_cms/api/auth/me', [token], 200);
    await t.db.kysely.deleteFrom('api_tokens').where('user_id', '=', user.id).returning('id').execute();
    expectError(await t.request('GET', '/_cms/api/auth/me', { token }), 401, 'UNAUTHORIZED');
  });

  it('keeps settings and tokens in memory across writes to other tables of this process', async () => {
    await useTwice('/_cms/api/settings', [t.adminToken], 200);
    // On PostgreSQL this process's own writes (the token's last use, the earlier tests') also come back
    // as notifications, each dropping what was read before it: once they are in, read once more.
    await arrived();
    expect((await t.request('GET', '/_cms/api/settings', { token: t.adminToken })).status).toBe(200);
    // A write this process makes to a table the cached reads do not look at.
    await t.db.kysely.insertInto('collections').values({
      id: '01ARZ3NDEKTSV4RRFFQ69G5FAV', slug: 'cache_probe', label: 'Probe', label_singular: null, description: null, icon: null,
      supports: '[]', table_name: 'ec_cache_probe', created_at: new Date().toISOString(), updated_at: new Date().toISOString(),
    }).execute();
    const statements = await t.statementsDuring(async () => expect((await t.request('GET', '/_cms/api/settings', { token: t.adminToken })).status).toBe(200));
    const reads = statements.filter((statement) => !statement.startsWith('pragma'));
    expect(reads).toEqual([]);
  });

  it('applies a role change made by another connection at once', async () => {
    const { user, token } = await t.userWithToken(50, ['admin']);
    await useTwice('/_cms/api/admin/users', [token], 200);
    await otherProcess.kysely.updateTable('users').set({ role: 40 }).where('id', '=', user.id).execute();
    await arrived();
    expectError(await t.request('GET', '/_cms/api/admin/users', { token }), 403, 'FORBIDDEN');
  });

  it('answers a repeated search from memory until the index changes, here or in another process', async () => {
    await createCollection(t, 'notes', [{ slug: 'title', type: 'string', searchable: true }], { supports: ['search'] });
    await createEntry(t, 'notes', { data: { title: 'Quince jelly' }, status: 'published' });
    const titles = async () => {
      const response = await t.request('GET', '/_cms/api/search?q=quince', { token: t.adminToken });
      expect(response.status).toBe(200);
      return (response.body.results as { title: string }[]).map((result) => result.title).sort();
    };
    // An answer is kept from the second time its query is asked (decisions/0063).
    for (let ask = 0; ask < 2; ask += 1) expect(await titles()).toEqual(['Quince jelly']);
    const statements = await t.statementsDuring(async () => expect(await titles()).toEqual(['Quince jelly']));
    // PostgreSQL has no change stamp: it searches on every request.
    expect(statements.some((statement) => statement.includes('search_documents'))).toBe(t.db.dialect !== 'sqlite');
    await runOperation(createEntryOperation, { ...t.systemContext(), db: otherProcess }, () => ({ collection: 'notes', data: { title: 'Quince tart' }, status: 'published' as const }));
    await arrived();
    expect(await titles()).toEqual(['Quince jelly', 'Quince tart']);
    await createEntry(t, 'notes', { data: { title: 'Quince paste' }, status: 'published' });
    expect(await titles()).toEqual(['Quince jelly', 'Quince paste', 'Quince tart']);
  });
});
