import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EntryChange, EntryChangeListener } from '../src/content/changes.ts';
import { roles } from '../src/core/roles.ts';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, type TestApp } from './support/harness.ts';
import { testJobRunner } from './support/jobs.ts';

/** What a listener saw of one change: enough to tell which write it was. */
interface Seen {
  kind: EntryChange['kind'];
  collection: string;
  entryId: string;
  locale: string;
  actor: string | undefined;
  status: string;
  previousStatus?: string;
  sharedFrom?: string;
}

const summary = (change: EntryChange): Seen => {
  const seen: Seen = {
    kind: change.kind,
    collection: change.collection.slug,
    entryId: change.entryId,
    locale: change.locale,
    actor: change.actor?.userId,
    status: change.entry._status,
  };
  if ('previousStatus' in change) seen.previousStatus = change.previousStatus;
  if ('sharedFrom' in change && change.sharedFrom !== undefined) seen.sharedFrom = change.sharedFrom;
  return seen;
};

/**
 * Issue 7 part 4: every entry change goes through one write path that tells the listeners registered
 * at start, inside the write's transaction.
 */
describe('entry change events', () => {
  let t: TestApp;
  /** Events as told inside the transaction, and as recorded once it committed. */
  let told: Seen[] = [];
  let committed: Seen[] = [];
  /** When set, a listener throws on the changes it matches (after the recorder has seen them). */
  let failWhen: ((change: EntryChange) => boolean) | undefined;

  const recorder: EntryChangeListener = (change, tx) => {
    told.push(summary(change));
    tx.afterCommit(() => committed.push(summary(change)));
  };
  const failing: EntryChangeListener = (change) => {
    if (failWhen?.(change)) throw new Error('listener refused the change');
  };

  const call = (method: string, path: string, body?: unknown) => t.request(method, `${api}${path}`, { token: t.adminToken, body });

  /** Runs one write and returns the events it committed, checking each was told exactly once. */
  async function changesOf(write: () => Promise<unknown>): Promise<Seen[]> {
    told = [];
    committed = [];
    await write();
    expect(told).toEqual(committed);
    return committed;
  }

  beforeAll(async () => {
    t = await createTestApp({}, { entryListeners: [recorder, failing] });
    expectSuccess(await call('POST', '/settings', { locales: ['en', 'fr'] }));
    await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }, { slug: 'rating', type: 'integer', translatable: false }], { supports: ['drafts', 'revisions'] });
    await createCollection(t, 'notes', [{ slug: 'title', type: 'string' }]);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    failWhen = undefined;
  });

  it('tells each kind of change once per write, with the entry after it', async () => {
    const adminId = t.admin.id;
    let id = '';
    const [created] = await changesOf(async () => {
      id = (await createEntry(t, 'posts', { data: { title: 'One' } })).id;
    });
    expect(created).toEqual({ kind: 'created', collection: 'posts', entryId: id, locale: 'en', actor: adminId, status: 'draft' });
    const one = { collection: 'posts', entryId: id, locale: 'en', actor: adminId };

    expect(await changesOf(() => call('PUT', `/content/posts/${id}`, { data: { title: 'Two' } }))).toEqual([
      { ...one, kind: 'updated', status: 'draft', previousStatus: 'draft' },
    ]);
    expect(await changesOf(() => call('POST', `/content/posts/${id}/publish`))).toEqual([{ ...one, kind: 'published', status: 'published', previousStatus: 'draft' }]);
    expect(await changesOf(() => call('PUT', `/content/posts/${id}`, { data: { title: 'Three' } }))).toEqual([
      { ...one, kind: 'draftStaged', status: 'published', previousStatus: 'published' },
    ]);
    expect(await changesOf(() => call('POST', `/content/posts/${id}/discard-draft`))).toEqual([
      { ...one, kind: 'draftDiscarded', status: 'published', previousStatus: 'published' },
    ]);
    const at = new Date(t.clock.now().getTime() + 60_000).toISOString();
    expect(await changesOf(() => call('POST', `/content/posts/${id}/schedule`, { scheduledAt: at }))).toEqual([
      { ...one, kind: 'scheduled', status: 'scheduled', previousStatus: 'published' },
    ]);
    expect(await changesOf(() => call('DELETE', `/content/posts/${id}/schedule`))).toEqual([
      { ...one, kind: 'unscheduled', status: 'published', previousStatus: 'scheduled' },
    ]);
    expect(await changesOf(() => call('POST', `/content/posts/${id}/unpublish`))).toEqual([
      { ...one, kind: 'unpublished', status: 'draft', previousStatus: 'published' },
    ]);
    expect(await changesOf(() => call('PUT', `/content/posts/${id}`, { data: { title: 'Four' }, status: 'published' }))).toEqual([
      { ...one, kind: 'published', status: 'published', previousStatus: 'draft' },
    ]);
    expect(await changesOf(() => call('PUT', `/content/posts/${id}`, { status: 'draft' }))).toEqual([
      { ...one, kind: 'unpublished', status: 'draft', previousStatus: 'published' },
    ]);
    expect(await changesOf(() => call('DELETE', `/content/posts/${id}`))).toEqual([{ ...one, kind: 'trashed', status: 'draft', previousStatus: 'draft' }]);
    expect(await changesOf(() => call('POST', `/content/posts/${id}/restore`))).toEqual([{ ...one, kind: 'restored', status: 'draft', previousStatus: 'draft' }]);

    const { items: revisions } = expectSuccess(await call('GET', `/content/posts/${id}/revisions`));
    expect(await changesOf(() => call('POST', `/revisions/${revisions.at(-1).id}/restore`))).toEqual([
      { ...one, kind: 'updated', status: 'draft', previousStatus: 'draft' },
    ]);
    let copy = '';
    const duplicated = await changesOf(async () => {
      copy = expectCreated(await call('POST', `/content/posts/${id}/duplicate`)).item.id;
    });
    expect(duplicated).toEqual([{ ...one, entryId: copy, kind: 'created', status: 'draft' }]);

    expectSuccess(await call('DELETE', `/content/posts/${copy}`));
    expect(await changesOf(() => call('DELETE', `/content/posts/${copy}/permanent`))).toEqual([{ ...one, entryId: copy, kind: 'deleted', status: 'draft' }]);
  });

  it('tells a scheduled publication with no acting user', async () => {
    const entry = await createEntry(t, 'notes', { data: { title: 'Later' } });
    expectSuccess(await call('POST', `/content/notes/${entry.id}/schedule`, { scheduledAt: new Date(t.clock.now().getTime() + 60_000).toISOString() }));
    t.clock.advance(61_000);
    expect(await changesOf(() => testJobRunner(t).runDue())).toEqual([
      { kind: 'published', collection: 'notes', entryId: entry.id, locale: 'en', actor: undefined, status: 'published', previousStatus: 'scheduled' },
    ]);
  });

  it('tells each member of a translation group that receives shared values, naming the save they came from', async () => {
    const english = await createEntry(t, 'posts', { data: { title: 'Hello', rating: 1 }, status: 'published' });
    const french = await createEntry(t, 'posts', { data: { title: 'Bonjour' }, locale: 'fr', translationOf: english.id, status: 'published' });
    const changes = await changesOf(() => call('PUT', `/content/posts/${english.id}`, { data: { rating: 2 } }));
    expect(changes.map(({ kind, entryId, sharedFrom }) => ({ kind, entryId, sharedFrom }))).toEqual([
      { kind: 'draftStaged', entryId: english.id, sharedFrom: undefined },
      { kind: 'draftStaged', entryId: french.id, sharedFrom: english.id },
    ]);
  });

  it('leaves no write and no committed event when a listener throws', async () => {
    const entry = await createEntry(t, 'notes', { data: { title: 'Kept' } });
    failWhen = (change) => change.kind === 'updated';
    told = [];
    committed = [];
    expectError(await call('PUT', `/content/notes/${entry.id}`, { data: { title: 'Refused' } }), 500, 'INTERNAL_ERROR');
    // The event was told inside the transaction, which then rolled back: nothing committed, nothing written.
    expect(told.map((change) => change.kind)).toEqual(['updated']);
    expect(committed).toEqual([]);
    const item = expectSuccess(await call('GET', `/content/notes/${entry.id}`)).item;
    expect(item.data.title).toBe('Kept');
    expect(item._rev).toBe(entry._rev);

    failWhen = (change) => change.kind === 'created';
    told = [];
    expectError(await call('POST', '/content/notes', { data: { title: 'Never' } }), 500, 'INTERNAL_ERROR');
    expect(told.map((change) => change.kind)).toEqual(['created']);
    expect(committed).toEqual([]);
    const { items } = expectSuccess(await call('GET', '/content/notes?limit=100'));
    expect(items.map((item: { data: { title: string } }) => item.data.title)).not.toContain('Never');
  });

  it('rolls back every write of a transaction when one later in it fails', async () => {
    const english = await createEntry(t, 'posts', { data: { title: 'Shared', rating: 5 } });
    const french = await createEntry(t, 'posts', { data: { title: 'Partagé' }, locale: 'fr', translationOf: english.id });
    // The save of the English entry is told first and succeeds; the French member's write fails after it.
    failWhen = (change) => change.entryId === french.id;
    told = [];
    committed = [];
    expectError(await call('PUT', `/content/posts/${english.id}`, { data: { title: 'Shared 2', rating: 6 } }), 500, 'INTERNAL_ERROR');
    expect(told.map((change) => change.entryId)).toEqual([english.id, french.id]);
    expect(committed).toEqual([]);
    expect(expectSuccess(await call('GET', `/content/posts/${english.id}`)).item.data).toEqual({ title: 'Shared', rating: 5 });
    const { items: revisions } = expectSuccess(await call('GET', `/content/posts/${english.id}/revisions`));
    expect(revisions).toHaveLength(1);
  });

  it('tells a refused write nothing at all', async () => {
    const reader = (await t.userWithToken(roles.subscriber, ['content:read'])).token;
    const entry = await createEntry(t, 'notes', { data: { title: 'Mine' } });
    const changes = await changesOf(async () => {
      expect((await t.request('PUT', `${api}/content/notes/${entry.id}`, { token: reader, body: { data: { title: 'Theirs' } } })).status).toBe(403);
      expect((await call('PUT', `/content/notes/${entry.id}`, { data: { title: 'x' }, _rev: 'stale' })).status).toBe(409);
    });
    expect(changes).toEqual([]);
  });
});
