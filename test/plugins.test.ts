import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { access, defineOperation, defineRoute, definePlugin, refuseSave } from '../src/plugins/api.ts';
import { loadPlugins } from '../src/plugins/loader.ts';
import type { QueuedEvent } from '../src/plugins/types.ts';
import { createCollection, expectCreated } from './support/content.ts';
import { expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';
import { serveMcp } from './support/mcp.ts';
import { createPluginTestApp, hookTimeoutMs, secondInstance } from './support/plugins.ts';
import { until } from './support/poll.ts';
import { repoRoot, runCli } from './support/process.ts';

const api = '/_cms/api';
const calls: string[] = [];

/** A plugin of the test's own: it rewrites, refuses, fails or hangs on a title, and records its after-hooks. */
const titleGuard = definePlugin({
  id: 'title-guard',
  name: 'Title guard',
  version: '1.2.3',
  description: 'Checks titles',
  hooks: {
    'content:beforeSave': (event) => {
      const title = event.data.title;
      if (title === 'refuse') throw refuseSave([{ path: 'data.title', message: 'Refused by the title guard' }]);
      if (title === 'throw') throw new Error('a bug in the hook');
      if (title === 'hang') return new Promise<never>(() => undefined);
      if (typeof title === 'string') return { data: { ...event.data, title: `${title.trim()} (checked)` } };
      return undefined;
    },
    'content:afterSave': (event) => {
      calls.push(`saved:${String(event.entry.data.title)}:${event.actor.kind}`);
      if (event.entry.data.title === 'after-throw (checked)') throw new Error('after-hook failure');
    },
    'content:afterPublish': (event) => void calls.push(`published:${String(event.entry.data.title)}`),
    'content:afterDelete': (event) => void calls.push(`deleted:${String(event.entry.data.title)}:${event.permanent}`),
  },
  routes: [
    defineRoute({
      method: 'get',
      path: '/ping',
      tag: 'Title guard',
      summary: 'Answers pong',
      operation: defineOperation({ name: 'titleGuard.ping', access: access.scope('admin'), run: async () => ({ pong: true }) }),
      response: z.object({ pong: z.boolean() }),
    }),
  ],
});

describe('plugins', () => {
  let t: TestApp;
  let editor: string;
  beforeAll(async () => {
    t = await createPluginTestApp({}, [titleGuard]);
    editor = (await t.userWithToken(40, ['content:read', 'content:write'])).token;
    await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }]);
  });
  afterAll(() => t.close());

  const create = (title: string, token = t.adminToken) => t.request('POST', `${api}/content/posts`, { token, body: { data: { title } } });

  it('lists the loaded plugins with their state, hooks and routes', async () => {
    const { items } = expectSuccess(await t.request('GET', `${api}/plugins`, { token: t.adminToken }));
    expect(items.map((item: { id: string }) => item.id)).toEqual(['webhooks', 'audit-log', 'title-guard']);
    const guard = items[2];
    expect(guard).toEqual({
      id: 'title-guard',
      name: 'Title guard',
      version: '1.2.3',
      description: 'Checks titles',
      enabled: true,
      source: 'test',
      hooks: ['content:beforeSave', 'content:afterSave', 'content:afterPublish', 'content:afterDelete'],
      routes: [{ method: 'GET', path: '/plugins/title-guard/ping' }],
      hasSettings: false,
      settingsSchema: null,
    });
    // The audit log's settings as JSON Schema, from which the panel makes its form.
    expect(expectSuccess(await t.request('GET', `${api}/plugins/audit-log`, { token: t.adminToken })).item.settingsSchema).toEqual({
      type: 'object',
      properties: { retentionDays: { type: 'integer', minimum: 1, maximum: 3650, default: 90, description: 'Records older than this many days are deleted' } },
      additionalProperties: false,
    });
    expect(expectSuccess(await t.request('GET', `${api}/plugins/webhooks`, { token: t.adminToken })).item.routes).toContainEqual({ method: 'POST', path: '/plugins/webhooks/subscriptions' });
    expectError(await t.request('GET', `${api}/plugins/nope`, { token: t.adminToken }), 404, 'NOT_FOUND');
    expectError(await t.request('POST', `${api}/plugins/nope/enable`, { token: t.adminToken }), 404, 'NOT_FOUND');
    expectError(await t.request('GET', `${api}/plugins/nope/settings`, { token: t.adminToken }), 404, 'NOT_FOUND');
  });

  it('lets content:beforeSave change the data, refuse with a 400, or fail and hang without stopping the save', async () => {
    expect(expectCreated(await create('  hello ')).item.data.title).toBe('hello (checked)');
    expect(issuePaths(await create('refuse'))).toEqual(['data.title']);
    expect(expectCreated(await create('throw')).item.data.title).toBe('throw');
    const started = Date.now();
    expect(expectCreated(await create('hang')).item.data.title).toBe('hang');
    expect(Date.now() - started).toBeGreaterThanOrEqual(hookTimeoutMs - 5);
    const { item } = expectCreated(await create('first'));
    expect(expectSuccess(await t.request('PUT', `${api}/content/posts/${item.id}`, { token: t.adminToken, body: { data: { title: 'second ' } } })).item.data.title).toBe('second (checked)');
  });

  it('calls after-hooks once the change committed; one that throws never fails the request', async () => {
    calls.length = 0;
    const { item } = expectCreated(await create('after-throw'));
    expectSuccess(await t.request('POST', `${api}/content/posts/${item.id}/publish`, { token: t.adminToken }));
    expectSuccess(await t.request('DELETE', `${api}/content/posts/${item.id}`, { token: t.adminToken }));
    await until(() => calls.length === 3, 'three after-hooks');
    expect(calls).toEqual(['saved:after-throw (checked):user', 'published:after-throw (checked)', 'deleted:after-throw (checked):false']);
  });

  it('fires the same hooks for MCP tools as for REST', async () => {
    const socket = await serveMcp(t);
    try {
      const client = await socket.connect(t.adminToken);
      const refused = await client.callTool({ name: 'content_create', arguments: { collection: 'posts', data: { title: 'refuse' } } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('Refused by the title guard');
      const created = await client.callTool({ name: 'content_create', arguments: { collection: 'posts', data: { title: 'by mcp ' } } });
      expect(JSON.stringify(created.content)).toContain('by mcp (checked)');
    } finally {
      await socket.close();
    }
  });

  it("serves a plugin's routes with Folio's auth, and documents them in the OpenAPI document", async () => {
    expect(expectSuccess(await t.request('GET', `${api}/plugins/title-guard/ping`, { token: t.adminToken }))).toEqual({ pong: true });
    expectError(await t.request('GET', `${api}/plugins/title-guard/ping`), 401, 'UNAUTHORIZED');
    expectError(await t.request('GET', `${api}/plugins/title-guard/ping`, { token: editor }), 403, 'FORBIDDEN');
    const document = (await t.request('GET', `${api}/openapi.json`)).body;
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/plugins/title-guard/ping', '/plugins/webhooks/subscriptions', '/plugins/audit-log/events', '/plugins/{pluginId}/settings'].map((path) => `${api}${path}`)));
  });

  it('switches a plugin off and on for every process without a restart: hooks stop, routes answer 404', async () => {
    const other = await secondInstance(t);
    try {
      expect((await other.request('POST', `${api}/content/posts`, t.adminToken, { data: { title: 'x ' } })).body.data.item.data.title).toBe('x (checked)');
      const disabled = expectSuccess(await t.request('POST', `${api}/plugins/title-guard/disable`, { token: t.adminToken }));
      expect(disabled.item.enabled).toBe(false);
      // The other process sees the switch at its next request.
      expect((await other.request('POST', `${api}/content/posts`, t.adminToken, { data: { title: 'refuse' } })).status).toBe(201);
      expect((await other.request('GET', `${api}/plugins/title-guard/ping`, t.adminToken)).status).toBe(404);
      expect((await other.request('GET', `${api}/plugins/title-guard`, t.adminToken)).body.data.item.enabled).toBe(false);
      expectError(await t.request('GET', `${api}/plugins/title-guard/ping`, { token: t.adminToken }), 404, 'NOT_FOUND');
      expect((await other.request('POST', `${api}/plugins/title-guard/enable`, t.adminToken)).body.data.item.enabled).toBe(true);
      await t.db.changesArrived?.();
      expect(issuePaths(await create('refuse'))).toEqual(['data.title']);
      expectSuccess(await t.request('GET', `${api}/plugins/title-guard/ping`, { token: t.adminToken }));
    } finally {
      await other.close();
    }
  });

  it('reads and replaces settings, checked by the plugin schema, naming the setting that fails', async () => {
    expect(expectSuccess(await t.request('GET', `${api}/plugins/audit-log/settings`, { token: t.adminToken }))).toEqual({ settings: { retentionDays: 90 } });
    expect(expectSuccess(await t.request('PUT', `${api}/plugins/audit-log/settings`, { token: t.adminToken, body: { retentionDays: 30 } }))).toEqual({ settings: { retentionDays: 30 } });
    expect(expectSuccess(await t.request('GET', `${api}/plugins/audit-log/settings`, { token: t.adminToken })).settings.retentionDays).toBe(30);
    expect(issuePaths(await t.request('PUT', `${api}/plugins/audit-log/settings`, { token: t.adminToken, body: { retentionDays: 0 } }))).toEqual(['retentionDays']);
    expect(issuePaths(await t.request('PUT', `${api}/plugins/audit-log/settings`, { token: t.adminToken, body: { retentionDays: 'long' } }))).toEqual(['retentionDays']);
    expect(issuePaths(await t.request('PUT', `${api}/plugins/audit-log/settings`, { token: t.adminToken, body: { keepForever: true } }))).toEqual(['keepForever']);
    expect(issuePaths(await t.request('PUT', `${api}/plugins/title-guard/settings`, { token: t.adminToken, body: { anything: 1 } }))).toEqual(['anything']);
    expect(issuePaths(await t.request('PUT', `${api}/plugins/audit-log/settings`, { token: t.adminToken, rawBody: '[1]', headers: { 'content-type': 'application/json' } })).length).toBeGreaterThan(0);
    expectError(await t.request('PUT', `${api}/plugins/nope/settings`, { token: t.adminToken, body: {} }), 404, 'NOT_FOUND');
    // Enabling keeps the settings; the settings keep the switch.
    expectSuccess(await t.request('POST', `${api}/plugins/audit-log/disable`, { token: t.adminToken }));
    expect(expectSuccess(await t.request('GET', `${api}/plugins/audit-log/settings`, { token: t.adminToken })).settings.retentionDays).toBe(30);
    expectSuccess(await t.request('PUT', `${api}/plugins/audit-log/settings`, { token: t.adminToken, body: { retentionDays: 31 } }));
    expect(expectSuccess(await t.request('GET', `${api}/plugins/audit-log`, { token: t.adminToken })).item.enabled).toBe(false);
    expectSuccess(await t.request('POST', `${api}/plugins/audit-log/enable`, { token: t.adminToken }));
  });

  it('answers 401 without a token and 403 without admin on every plugin endpoint', async () => {
    const endpoints: [string, string, unknown?][] = [
      ['GET', '/plugins'],
      ['GET', '/plugins/webhooks'],
      ['POST', '/plugins/webhooks/enable'],
      ['POST', '/plugins/webhooks/disable'],
      ['GET', '/plugins/audit-log/settings'],
      ['PUT', '/plugins/audit-log/settings', { retentionDays: 5 }],
    ];
    for (const [method, path, body] of endpoints) {
      expectError(await t.request(method, `${api}${path}`, { body }), 401, 'UNAUTHORIZED');
      const forbidden = expectError(await t.request(method, `${api}${path}`, { token: editor, body }), 403, 'FORBIDDEN');
      expect(forbidden.details.requiredScope).toBe('admin');
    }
  });
});

/** Plugins of the test's own that take their events from the queue: one records them, one fails while told to. */
const consumed: { recorder: string[]; flaky: string[]; values: { recorder: unknown[]; flaky: unknown[] } } = { recorder: [], flaky: [], values: { recorder: [], flaky: [] } };
let flakyFails = false;
const describeEvent = (event: QueuedEvent) => `${event.name}:${event.resource.type}:${'entry' in event.event ? event.event.entry.slug : ''}`;
const valuesOf = (events: readonly QueuedEvent[]) => events.map((event) => ('entry' in event.event ? event.event.entry.data : undefined));
const recorder = definePlugin({
  id: 'recorder',
  name: 'Recorder',
  version: '1.0.0',
  description: 'Records the events handed over',
  // Recorded once the batch commits, as a plugin's writes through ctx.db are: a batch rolled back is handed over again.
  consumeEvents: async (events, ctx) =>
    ctx.db.afterCommit(() => {
      consumed.recorder.push(...events.map(describeEvent));
      consumed.values.recorder.push(...valuesOf(events));
    }),
});
const flaky = definePlugin({
  id: 'flaky',
  name: 'Flaky',
  version: '1.0.0',
  description: 'Fails to take its events while told to',
  consumeEvents: async (events, ctx) => {
    if (flakyFails) throw new Error('flaky on purpose');
    ctx.db.afterCommit(() => {
      consumed.flaky.push(...events.map(describeEvent));
      consumed.values.flaky.push(...valuesOf(events));
    });
  },
});

describe('queued events (consumeEvents)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createPluginTestApp({}, [recorder, flaky]);
    await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }]);
    // Only the test's plugins take events here, so the counts handed over are theirs.
    for (const id of ['webhooks', 'audit-log']) expectSuccess(await t.request('POST', `${api}/plugins/${id}/disable`, { token: t.adminToken }));
  });
  afterAll(() => t.close());

  const create = (title: string) => t.request('POST', `${api}/content/posts`, { token: t.adminToken, body: { data: { title } } });
  const handOver = () => t.plugins!.handOverQueuedEvents(t.systemContext());
  const queued = async () => Number((await t.db.kysely.selectFrom('plugin_events').select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow()).count);

  it('hands each committed event over once, in the order it happened, and empties the queue', async () => {
    consumed.recorder.length = 0;
    consumed.flaky.length = 0;
    const titles = Array.from({ length: 7 }, (_, index) => `post ${index}`);
    for (const title of titles) expectCreated(await create(title));
    const { item } = expectCreated(await create('published'));
    expectSuccess(await t.request('POST', `${api}/content/posts/${item.id}/publish`, { token: t.adminToken }));
    // Nothing is handed over in the writer's transaction: the events wait in the queue.
    expect(consumed.recorder).toEqual([]);
    expect(await queued()).toBe(9);
    expect(await handOver()).toBe(18);
    const expected = [...titles.map((title) => title.replace(' ', '-')), 'published'].map((slug) => `content:afterSave:entry:${slug}`).concat('content:afterPublish:entry:published');
    expect(consumed.recorder).toEqual(expected);
    expect(consumed.flaky).toEqual(expected);
    expect(await queued()).toBe(0);
    expect(await handOver()).toBe(0);
    expect(consumed.recorder).toHaveLength(9);
  });

  it("keeps a failing plugin's events queued until it recovers, without holding up the save or the other plugins", async () => {
    consumed.recorder.length = 0;
    consumed.flaky.length = 0;
    flakyFails = true;
    expectCreated(await create('while failing'));
    expect(await handOver()).toBe(1);
    expect(consumed.recorder).toEqual(['content:afterSave:entry:while-failing']);
    expect(consumed.flaky).toEqual([]);
    expect(await queued()).toBe(1);
    expectCreated(await create('still failing'));
    expect(await handOver()).toBe(1);
    flakyFails = false;
    expect(await handOver()).toBe(2);
    expect(consumed.flaky).toEqual(['content:afterSave:entry:while-failing', 'content:afterSave:entry:still-failing']);
    expect(consumed.recorder).toEqual(['content:afterSave:entry:while-failing', 'content:afterSave:entry:still-failing']);
    expect(await queued()).toBe(0);
  });

  it('queues nothing for a plugin while it is disabled, even once enabled again', async () => {
    consumed.recorder.length = 0;
    consumed.flaky.length = 0;
    expectSuccess(await t.request('POST', `${api}/plugins/recorder/disable`, { token: t.adminToken }));
    expectCreated(await create('unrecorded'));
    expectSuccess(await t.request('POST', `${api}/plugins/recorder/enable`, { token: t.adminToken }));
    expect(await handOver()).toBe(1);
    expect(consumed.recorder).toEqual([]);
    expect(consumed.flaky).toEqual(['content:afterSave:entry:unrecorded']);
  });

  it("gives an entry's field values only to a plugin that asked for that event's, from the next change on", async () => {
    consumed.values.recorder.length = 0;
    consumed.values.flaky.length = 0;
    expectCreated(await create('before asking'));
    await t.plugins!.takeEventData(t.systemContext(), 'recorder', ['content.saved']);
    const { item } = expectCreated(await create('after asking'));
    expectSuccess(await t.request('POST', `${api}/content/posts/${item.id}/publish`, { token: t.adminToken }));
    expect(await handOver()).toBe(6);
    // The recorder asked for saves only. The queue holds one copy of an event for every plugin, so
    // the flaky plugin, which asked for nothing, gets the values where the recorder does.
    expect(consumed.values.recorder).toEqual([undefined, { title: 'after asking' }, undefined]);
    expect(consumed.values.flaky).toEqual(consumed.values.recorder);
    await t.plugins!.takeEventData(t.systemContext(), 'recorder', ['*']);
    expectSuccess(await t.request('POST', `${api}/content/posts/${item.id}/unpublish`, { token: t.adminToken }));
    await handOver();
    expect(consumed.values.recorder.at(-1)).toEqual({ title: 'after asking' });
    await t.plugins!.takeEventData(t.systemContext(), 'recorder', []);
    expectCreated(await create('no longer asking'));
    await handOver();
    expect(consumed.values.recorder.at(-1)).toBeUndefined();
    // Asking keeps the plugin's switch as it was.
    expect(expectSuccess(await t.request('GET', `${api}/plugins/recorder`, { token: t.adminToken })).item.enabled).toBe(true);
  });

  it('lists a consuming plugin as hearing every after-hook', async () => {
    const { item } = expectSuccess(await t.request('GET', `${api}/plugins/recorder`, { token: t.adminToken }));
    expect(item.hooks).toEqual(['content:afterSave', 'content:afterPublish', 'content:afterUnpublish', 'content:afterDelete', 'media:afterUpload', 'media:afterDelete', 'user:afterSignIn', 'comment:afterCreate', 'comment:afterApprove', 'comment:afterModerate', 'comment:afterUpdate', 'comment:afterDelete']);
  });
});

describe('loading plugins', () => {
  const fixtures = path.join(repoRoot, 'test/fixtures/plugins');

  it('loads a local file and a shipped plugin by name, in order', async () => {
    const host = await loadPlugins(['audit-log', './test/fixtures/plugins/greeter.ts'], { hookTimeoutMs: 100, cwd: repoRoot });
    expect(host.plugins.map((plugin) => [plugin.definition.id, plugin.source])).toEqual([
      ['audit-log', 'audit-log'],
      ['greeter', './test/fixtures/plugins/greeter.ts'],
    ]);
  });

  it('refuses a malformed, missing or duplicate plugin with a message naming it', async () => {
    await expect(loadPlugins([path.join(fixtures, 'no-version.ts')], { hookTimeoutMs: 100 })).rejects.toThrow(/no-version\.ts \(broken\) is not a valid Folio plugin: version .*hooks/);
    await expect(loadPlugins(['./test/fixtures/plugins/missing.ts'], { hookTimeoutMs: 100, cwd: repoRoot })).rejects.toThrow(/Plugin \.\/test\/fixtures\/plugins\/missing\.ts could not be loaded/);
    await expect(loadPlugins(['folio-plugin-that-is-not-installed'], { hookTimeoutMs: 100 })).rejects.toThrow(/Plugin folio-plugin-that-is-not-installed could not be loaded/);
    await expect(loadPlugins(['webhooks', 'webhooks'], { hookTimeoutMs: 100 })).rejects.toThrow(/another plugin already has the id webhooks/);
  });

  it('stops the server start with the bad plugin named', async () => {
    const result = await runCli(['serve'], { DATABASE_URL: 'file::memory:', PORT: '0', PLUGINS: 'webhooks,./test/fixtures/plugins/no-version.ts' });
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toMatch(/no-version\.ts \(broken\) is not a valid Folio plugin/);
  });
});
