import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../src/core/roles.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { api, createCollection, createEntry } from './support/content.ts';
import { createTestApp, expectSuccess, type TestApp } from './support/harness.ts';
import { dropSearchTables } from './support/search.ts';

/**
 * Issue 8 item 4: a reader's list sorted by a field must not reveal staged drafts, not even through
 * the order (docs/decisions/0007-reader-sort-order.md).
 */
describe('list order by a field while drafts are staged', () => {
  let t: TestApp;
  let subscriber: string;
  beforeAll(async () => {
    t = await createTestApp();
    subscriber = (await t.userWithToken(roles.subscriber, ['content:read'])).token;
    await createCollection(t, 'notes', [{ slug: 'title', type: 'string' }, { slug: 'rank', type: 'integer' }, { slug: 'pinned', type: 'boolean' }], {
      supports: ['drafts'],
    });
    // Live LIVE (rank 1) and MMM (rank 2) with staged drafts STAGED (rank 9) and AAA (rank 0); NNN is
    // live without a draft; ZZZ was never published, so readers do not see it at all.
    const live = await createEntry(t, 'notes', { data: { title: 'LIVE', rank: 1, pinned: false }, status: 'published' });
    const middle = await createEntry(t, 'notes', { data: { title: 'MMM', rank: 2, pinned: true }, status: 'published' });
    await createEntry(t, 'notes', { data: { title: 'NNN', rank: 3, pinned: true }, status: 'published' });
    await createEntry(t, 'notes', { data: { title: 'ZZZ', rank: -1 } });
    const stage = async (id: string, data: Record<string, unknown>) =>
      expectSuccess(await t.request('PUT', `${api}/content/notes/${id}`, { token: t.adminToken, body: { data } }));
    await stage(live.id, { title: 'STAGED', rank: 9, pinned: true });
    await stage(middle.id, { title: 'AAA', rank: 0, pinned: false });
  });
  afterAll(() => t.close());

  /** Every page of a list, one entry per page, following the cursors. */
  async function titlesPageByPage(token: string, query: string): Promise<string[]> {
    const titles: string[] = [];
    let cursor: string | undefined;
    do {
      const data = expectSuccess(await t.request('GET', `${api}/content/notes?${query}&limit=1${cursor ? `&cursor=${cursor}` : ''}`, { token }));
      titles.push(...data.items.map((item: { data: { title: string } }) => item.data.title));
      cursor = data.nextCursor ?? undefined;
    } while (cursor);
    return titles;
  }

  it('orders a reader by live values only, a page at a time too', async () => {
    expect(await titlesPageByPage(subscriber, 'orderBy=title&order=asc')).toEqual(['LIVE', 'MMM', 'NNN']);
    expect(await titlesPageByPage(subscriber, 'orderBy=title&order=desc')).toEqual(['NNN', 'MMM', 'LIVE']);
    expect(await titlesPageByPage(subscriber, 'orderBy=rank&order=asc')).toEqual(['LIVE', 'MMM', 'NNN']);
    expect(await titlesPageByPage(subscriber, 'orderBy=rank&order=desc')).toEqual(['NNN', 'MMM', 'LIVE']);
    // Live: LIVE false, MMM true, NNN true (ties by id, in creation order).
    expect(await titlesPageByPage(subscriber, 'orderBy=pinned&order=asc')).toEqual(['LIVE', 'MMM', 'NNN']);
  });

  it('orders an editor by the working values, which are what the editor sees', async () => {
    expect(await titlesPageByPage(t.adminToken, 'orderBy=title&order=asc')).toEqual(['AAA', 'NNN', 'STAGED', 'ZZZ']);
    expect(await titlesPageByPage(t.adminToken, 'orderBy=rank&order=desc')).toEqual(['STAGED', 'NNN', 'AAA', 'ZZZ']);
  });

  it('follows a publish: the staged values become the reader order', async () => {
    const { items } = expectSuccess(await t.request('GET', `${api}/content/notes?orderBy=title`, { token: t.adminToken }));
    const staged = items.find((item: { data: { title: string } }) => item.data.title === 'STAGED');
    expectSuccess(await t.request('POST', `${api}/content/notes/${staged.id}/publish`, { token: t.adminToken }));
    expect(await titlesPageByPage(subscriber, 'orderBy=title&order=asc')).toEqual(['MMM', 'NNN', 'STAGED']);
  });

  it('keeps ordering by live values when an integer field becomes a number', async () => {
    expectSuccess(await t.request('PATCH', `${api}/schema/collections/notes/fields/rank`, { token: t.adminToken, body: { type: 'number' } }));
    const { items } = expectSuccess(await t.request('GET', `${api}/content/notes?orderBy=title&order=asc`, { token: subscriber }));
    // The live rank of NNN (3) is kept aside while a draft with a fraction is staged.
    const nnn = items.find((item: { data: { title: string } }) => item.data.title === 'NNN');
    expectSuccess(await t.request('PUT', `${api}/content/notes/${nnn.id}`, { token: t.adminToken, body: { data: { rank: -0.5 } } }));
    expect(await titlesPageByPage(subscriber, 'orderBy=rank&order=asc')).toEqual(['MMM', 'NNN', 'STAGED']);
    expect(await titlesPageByPage(t.adminToken, 'orderBy=rank&order=asc')).toEqual(['ZZZ', 'NNN', 'AAA', 'STAGED']);
  });

  it('gives the collections of an older database their live sort indexes when it migrates', async () => {
    const liveSortIndexes = async () => {
      const query =
        t.db.dialect === 'sqlite'
          ? sql<{ name: string }>`select name from sqlite_master where type = 'index' and name like 'lx_%'`
          : sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() and indexname like 'lx_%'`;
      return (await query.execute(t.db.kysely)).rows.map((row) => row.name).sort();
    };
    const indexes = await liveSortIndexes();
    expect(indexes).toHaveLength(3);
    // As before migration 0003: no live sort index, and neither it nor the later 0004 (jobs, which
    // replaced the schedule table), 0005 (media), 0006 (taxonomies), 0007 (site structure), 0008
    // (search), 0009 (sign-in), 0010 (OAuth), 0011 (plugins) and 0012 (import, which added _bylines to
    // entry tables), 0013 (media titles) and 0014 (WordPress.com connections), 0015 (the webhook outbox's indexes), 0016 (the plugins' event queue), 0017 (the events plugins take with data), 0018 (preview links), 0019 (where media is used), 0020 (change notifications), 0021 (the search's filter index), 0022 (the users' last sign-in), 0023 (webhook answers' excerpts), 0024 (the terms' order), 0025 (jobs by kind) 0026 (redirects), 0027 (comments) and 0028 (the entries' SEO values), 0029 (comments' change notifications) 0030 (a site restore's progress), 0031 (the rest of a restore's state) and 0032 (a move's record) applied.
    for (const name of indexes) await t.db.kysely.schema.dropIndex(name).execute();
    await dropSearchTables(t.db);
    for (const { table_name: table } of await t.db.kysely.selectFrom('collections').select('table_name').execute()) {
      await t.db.kysely.schema.alterTable(table).dropColumn('_bylines').execute();
      await t.db.kysely.schema.alterTable(table).dropColumn('_seo').execute();
    }
    for (const table of ['site_moves', 'site_restores', 'comments', 'redirect_hits', 'redirects', 'media_usage', 'preview_grants', 'plugin_events', 'import_connections', 'bylines', 'import_notes', 'import_items', 'import_analyses', 'audit_events', 'webhook_attempts', 'webhook_deliveries', 'webhook_subscriptions', 'plugin_states', 'oauth_tokens', 'oauth_device_codes', 'oauth_codes', 'oauth_consent_requests', 'oauth_grants', 'oauth_clients', 'setup_secrets', 'setup_state', 'rate_limits', 'invitations', 'magic_links', 'webauthn_challenges', 'passkeys', 'sessions', 'widgets', 'widget_areas', 'sections', 'menu_items', 'menus', 'entry_terms', 'terms', 'taxonomy_collections', 'taxonomies', 'media_upload_grants', 'media_derivatives', 'media', 'jobs'] as const) await t.db.kysely.schema.dropTable(table).execute();
    await t.db.kysely.schema.alterTable('collections').dropColumn('url_pattern').execute();
    await t.db.kysely.schema.alterTable('collections').dropColumn('comments').execute();
    await t.db.kysely.schema.alterTable('users').dropColumn('last_sign_in_at').execute();
    await sql`create table scheduled_publications (entry_id text primary key, collection_id text not null, due_at text not null)`.execute(t.db.kysely);
    await t.db.kysely.deleteFrom('folio_migrations' as never).where('name' as never, 'in', ['0003_reader_sort_indexes', '0004_jobs', '0005_media', '0006_taxonomies', '0007_site_structure', '0008_search', '0009_sign_in', '0010_oauth', '0011_plugins', '0012_import', '0013_import_media', '0014_import_connections', '0015_webhook_outbox_indexes', '0016_plugin_events', '0017_plugin_event_data', '0018_preview_grants', '0019_media_usage', '0020_change_notifications', '0021_search_filter_index', '0022_user_last_sign_in', '0023_webhook_response_excerpt', '0024_term_order', '0025_jobs_by_kind', '0026_redirects', '0027_comments', '0028_entry_seo', '0029_comment_notifications', '0030_site_restores', '0031_site_restore_state', '0032_site_moves'] as never).execute();
    expect(await migrateToLatest(t.db)).toEqual(['0003_reader_sort_indexes', '0004_jobs', '0005_media', '0006_taxonomies', '0007_site_structure', '0008_search', '0009_sign_in', '0010_oauth', '0011_plugins', '0012_import', '0013_import_media', '0014_import_connections', '0015_webhook_outbox_indexes', '0016_plugin_events', '0017_plugin_event_data', '0018_preview_grants', '0019_media_usage', '0020_change_notifications', '0021_search_filter_index', '0022_user_last_sign_in', '0023_webhook_response_excerpt', '0024_term_order', '0025_jobs_by_kind', '0026_redirects', '0027_comments', '0028_entry_seo', '0029_comment_notifications', '0030_site_restores', '0031_site_restore_state', '0032_site_moves']);
    expect(await liveSortIndexes()).toEqual(indexes);
    expect(await titlesPageByPage(subscriber, 'orderBy=title&order=asc')).toEqual(['MMM', 'NNN', 'STAGED']);
  });
});
