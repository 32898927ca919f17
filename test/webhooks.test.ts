import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { definePlugin } from '../src/plugins/api.ts';
import { sendWebhook } from '../src/plugins/webhooks/sender.ts';
import { retryDelayMs, retryWindowMs, type DeliveryWorker } from '../src/plugins/webhooks/worker.ts';
import { createCollection, expectCreated } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';
import { createPluginTestApp, deliveryWorker, startReceiver } from './support/plugins.ts';
import { until } from './support/poll.ts';
import { spawnServer, type ServerProcess } from './support/process.ts';

const api = '/_cms/api';
const hooks = `${api}/plugins/webhooks`;

/** A plugin after the webhooks one whose transactional hook fails on one title: the outbox row is written, then rolled back. */
const failsLate = definePlugin({
  id: 'fails-late',
  name: 'Fails late',
  version: '1.0.0',
  description: 'Rolls back saves titled "roll back"',
  transactionalHooks: {
    'content:afterSave': async (event) => {
      if (event.entry.data.title === 'roll back') throw new Error('rolled back on purpose');
    },
  },
});

/** The Standard Webhooks check, written out from the specification as a receiver would. */
function verify(secret: string, headers: Record<string, string | string[] | undefined>, body: string): boolean {
  const signed = `${String(headers['webhook-id'])}.${String(headers['webhook-timestamp'])}.${body}`;
  const expected = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(signed).digest('base64');
  return String(headers['webhook-signature']).split(' ').includes(`v1,${expected}`);
}

describe('webhooks', () => {
  let t: TestApp;
  let worker: DeliveryWorker;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let editor: string;

  beforeAll(async () => {
    t = await createPluginTestApp({}, [failsLate]);
    worker = deliveryWorker(t);
    editor = (await t.userWithToken(40, ['content:read', 'content:write'])).token;
    await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }], { supports: ['drafts', 'revisions'] });
  });
  afterAll(() => t.close());
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());
  afterEach(async () => {
    // Each test starts with no subscription and nothing left to send.
    for (const item of expectSuccess(await t.request('GET', `${hooks}/subscriptions`, { token: t.adminToken })).items) {
      expectSuccess(await t.request('DELETE', `${hooks}/subscriptions/${item.id}`, { token: t.adminToken }));
    }
    receiver.received.length = 0;
    receiver.all.length = 0;
    receiver.plan.length = 0;
  });

  const subscribe = async (events: string[] = ['*'], url = receiver.url) => {
    const data = expectCreated(await t.request('POST', `${hooks}/subscriptions`, { token: t.adminToken, body: { url, events } }));
    return data as { item: { id: string }; secret: string };
  };
  const createPost = async (title: string) => expectCreated(await t.request('POST', `${api}/content/posts`, { token: t.adminToken, body: { data: { title } } })).item;
  const deliveries = async (subscriptionId: string) => expectSuccess(await t.request('GET', `${hooks}/subscriptions/${subscriptionId}/deliveries`, { token: t.adminToken })).items;

  it('shows the secret once and signs every delivery the Standard Webhooks way', async () => {
    const { item, secret } = await subscribe(['content.saved']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const shown = expectSuccess(await t.request('GET', `${hooks}/subscriptions/${item.id}`, { token: t.adminToken }));
    expect(JSON.stringify(shown)).not.toContain(secret.slice(6));
    expect(shown.item).toMatchObject({ url: receiver.url, events: ['content.saved'], active: true });

    const post = await createPost('Signed');
    expect(await worker.runDue()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    expect(verify(secret, delivery!.headers, delivery!.body)).toBe(true);
    expect(verify(`whsec_${Buffer.alloc(32).toString('base64')}`, delivery!.headers, delivery!.body)).toBe(false);
    expect(delivery!.headers['webhook-id']).toMatch(/^msg_[0-9A-Z]{26}$/);
    expect(Number(delivery!.headers['webhook-timestamp'])).toBe(Math.floor(t.clock.now().getTime() / 1000));
    expect(delivery!.json).toMatchObject({ type: 'content.saved', data: { created: true, entry: { id: post.id, collection: 'posts', data: { title: 'Signed' } }, actor: { kind: 'user', userId: t.admin.id, credential: { type: 'token' } } } });
    const [logged] = await deliveries(item.id);
    expect(logged).toMatchObject({ state: 'succeeded', attempts: 1, lastStatus: 200, messageId: delivery!.headers['webhook-id'], eventType: 'content.saved' });
    expect(logged.log).toEqual([{ attempt: 1, startedAt: expect.any(String), durationMs: expect.any(Number), statusCode: 200, error: null, responseExcerpt: null }]);
    // Nothing left: a second pass sends nothing.
    expect(await worker.runDue()).toBe(0);
  });

  it("keeps the start of each answer with its attempt: at most 1 KB, a character cut there left out", async () => {
    const { item } = await subscribe(['content.saved']);
    // 1,023 bytes, then a two-byte character across the 1,024th: the excerpt stops before it.
    receiver.plan.push({ status: 503, body: `Down for maintenance ${'.'.repeat(1002)}é and more` });
    await createPost('Excerpted');
    expect(await worker.runDue()).toBe(1);
    const [delivery] = await deliveries(item.id);
    expect(delivery.log[0]).toMatchObject({ statusCode: 503, error: 'HTTP 503', responseExcerpt: `Down for maintenance ${'.'.repeat(1002)}` });
  });

  it("delivers one entry's events in the order they happened", async () => {
    await subscribe();
    const post = await createPost('Ordered');
    const path = `${api}/content/posts/${post.id}`;
    expectSuccess(await t.request('PUT', path, { token: t.adminToken, body: { data: { title: 'Ordered 2' } } }));
    expectSuccess(await t.request('POST', `${path}/publish`, { token: t.adminToken }));
    expectSuccess(await t.request('POST', `${path}/unpublish`, { token: t.adminToken }));
    expectSuccess(await t.request('DELETE', path, { token: t.adminToken }));
    // The first attempt of the first event fails: the others wait behind it.
    receiver.plan.push(500);
    await worker.runDue();
    expect(receiver.received).toEqual([]);
    t.clock.advance(retryDelayMs(1));
    await worker.runDue();
    expect(receiver.received.map((delivery) => delivery.json.type)).toEqual(['content.saved', 'content.saved', 'content.published', 'content.unpublished', 'content.deleted']);
    expect(receiver.received.map((delivery) => delivery.json.data.entry.data.title)).toEqual(['Ordered', 'Ordered 2', 'Ordered 2', 'Ordered 2', 'Ordered 2']);
  });

  it('retries after a 500 and after a timeout, with a growing wait, logging each attempt', async () => {
    const { item } = await subscribe(['content.saved']);
    receiver.plan.push(500, 'hang');
    await createPost('Retried');
    expect(await worker.runDue()).toBe(1);
    let [delivery] = await deliveries(item.id);
    expect(delivery).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 500, lastError: 'HTTP 500' });
    expect(Date.parse(delivery.nextAttemptAt) - t.clock.now().getTime()).toBe(retryDelayMs(1));
    // Not due yet.
    expect(await worker.runDue()).toBe(0);
    t.clock.advance(retryDelayMs(1));
    expect(await worker.runDue()).toBe(1);
    [delivery] = await deliveries(item.id);
    expect(delivery).toMatchObject({ state: 'pending', attempts: 2, lastStatus: null, lastError: 'No complete answer within 300 ms' });
    expect(delivery.log[1].durationMs).toBeGreaterThanOrEqual(290);
    expect(Date.parse(delivery.nextAttemptAt) - t.clock.now().getTime()).toBe(retryDelayMs(2));
    t.clock.advance(retryDelayMs(2));
    expect(await worker.runDue()).toBe(1);
    [delivery] = await deliveries(item.id);
    expect(delivery.state).toBe('succeeded');
    expect(delivery.log.map((attempt: { statusCode: number | null }) => attempt.statusCode)).toEqual([500, null, 200]);
    expect(receiver.all).toHaveLength(3);
    expect(new Set(receiver.all.map((request) => request.headers['webhook-id'])).size).toBe(1);
  });

  it('gives up after a day of failures, and sends again on a manual redeliver', async () => {
    const { item } = await subscribe(['content.saved']);
    await createPost('Doomed');
    const start = t.clock.now().getTime();
    let attempts = 0;
    for (;;) {
      receiver.plan.push(503);
      attempts += await worker.runDue();
      const [delivery] = await deliveries(item.id);
      if (delivery.state === 'failed') break;
      t.clock.advance(Date.parse(delivery.nextAttemptAt) - t.clock.now().getTime());
    }
    expect(t.clock.now().getTime() - start).toBeLessThanOrEqual(retryWindowMs);
    expect(t.clock.now().getTime() - start).toBeGreaterThan(retryWindowMs / 2);
    const [failed] = await deliveries(item.id);
    expect(failed).toMatchObject({ state: 'failed', attempts, lastStatus: 503, nextAttemptAt: null });
    expect(attempts).toBeGreaterThanOrEqual(10);
    receiver.plan.length = 0;
    const redelivered = expectSuccess(await t.request('POST', `${hooks}/deliveries/${failed.id}/redeliver`, { token: t.adminToken })).item;
    expect(redelivered.state).toBe('pending');
    expect(await worker.runDue()).toBe(1);
    const [sent] = await deliveries(item.id);
    expect(sent).toMatchObject({ state: 'succeeded', attempts: attempts + 1, lastStatus: 200 });
    expect(receiver.received[0]!.headers['webhook-id']).toBe(failed.messageId);
    // Only a finished delivery is sent again.
    expectSuccess(await t.request('POST', `${hooks}/deliveries/${failed.id}/redeliver`, { token: t.adminToken }));
    expectError(await t.request('POST', `${hooks}/deliveries/${failed.id}/redeliver`, { token: t.adminToken }), 409, 'CONFLICT');
    expectError(await t.request('POST', `${hooks}/deliveries/NOPE/redeliver`, { token: t.adminToken }), 404, 'NOT_FOUND');
  });

  it('sends nothing for a write that rolled back', async () => {
    const { item } = await subscribe();
    expectError(await t.request('POST', `${api}/content/posts`, { token: t.adminToken, body: { data: { title: 'roll back' } } }), 500, 'INTERNAL_ERROR');
    expect(await worker.runDue()).toBe(0);
    expect(await deliveries(item.id)).toEqual([]);
    expect(receiver.all).toEqual([]);
  });

  it('does not follow redirects, and sends only to subscriptions that are active and ask for the event', async () => {
    const { item } = await subscribe(['content.saved']);
    const inactive = await subscribe(['content.saved']);
    expectSuccess(await t.request('PATCH', `${hooks}/subscriptions/${inactive.item.id}`, { token: t.adminToken, body: { active: false } }));
    await subscribe(['media.uploaded']);
    receiver.plan.push({ redirect: `${receiver.url}/elsewhere` });
    await createPost('Redirected');
    expect(await worker.runDue()).toBe(1);
    const [delivery] = await deliveries(item.id);
    expect(delivery).toMatchObject({ state: 'pending', lastStatus: 302 });
    expect(delivery.lastError).toMatch(/^Redirect to .* not followed$/);
    expect(receiver.all).toHaveLength(1);
    expect(await deliveries(inactive.item.id)).toEqual([]);
  });

  it('sends a subscription the events of changes made from its creation on, not those still queued then', async () => {
    const saves = await subscribe(['content.saved']);
    t.clock.advance(1000);
    // Made while only saves are listened to: its publication is queued without the entry's values.
    const before = await createPost('Before');
    expectSuccess(await t.request('POST', `${api}/content/posts/${before.id}/publish`, { token: t.adminToken }));
    t.clock.advance(1000);
    const everything = await subscribe(['*']);
    t.clock.advance(1000);
    const after = await createPost('After');
    expectSuccess(await t.request('POST', `${api}/content/posts/${after.id}/publish`, { token: t.adminToken }));
    // One pass hands over every event above at once.
    expect(await worker.runDue()).toBe(4);
    expect((await deliveries(saves.item.id)).map((delivery: { eventType: string }) => delivery.eventType)).toEqual(['content.saved', 'content.saved']);
    expect((await deliveries(everything.item.id)).map((delivery: { eventType: string }) => delivery.eventType).sort()).toEqual(['content.published', 'content.saved']);
    const received = receiver.received.map((delivery) => `${delivery.json.type}:${delivery.json.data.entry.data.title}`);
    expect(received.sort()).toEqual(['content.published:After', 'content.saved:After', 'content.saved:After', 'content.saved:Before']);
  });

  it('stops queueing when the plugin is disabled, and its routes answer 404', async () => {
    const { item } = await subscribe();
    expectSuccess(await t.request('POST', `${api}/plugins/webhooks/disable`, { token: t.adminToken }));
    try {
      await createPost('Unheard');
      expectError(await t.request('GET', `${hooks}/subscriptions`, { token: t.adminToken }), 404, 'NOT_FOUND');
    } finally {
      expectSuccess(await t.request('POST', `${api}/plugins/webhooks/enable`, { token: t.adminToken }));
    }
    expect(await deliveries(item.id)).toEqual([]);
  });

  it('refuses bad subscriptions with a 400 naming the field, and unknown ids with a 404', async () => {
    const bad = async (body: unknown) => issuePaths(await t.request('POST', `${hooks}/subscriptions`, { token: t.adminToken, body }));
    expect(await bad({ url: 'ftp://example.com/hook', events: ['*'] })).toEqual(['url']);
    expect(await bad({ url: 'not a url', events: ['*'] })).toEqual(['url']);
    expect(await bad({ url: 'https://user:pw@example.com/', events: ['*'] })).toEqual(['url']);
    expect(await bad({ url: receiver.url, events: [] })).toEqual(['events']);
    expect(await bad({ url: receiver.url, events: ['content.exploded'] })).toEqual(['events.0']);
    expect(await bad({ url: receiver.url, events: ['*'], colour: 'red' })).toEqual(['colour']);
    expect(await bad({ events: ['*'] })).toEqual(['url']);
    const { item } = await subscribe();
    expect(issuePaths(await t.request('PATCH', `${hooks}/subscriptions/${item.id}`, { token: t.adminToken, body: { active: 'yes' } }))).toEqual(['active']);
    expect(issuePaths(await t.request('GET', `${hooks}/subscriptions/${item.id}/deliveries?limit=0`, { token: t.adminToken }))).toEqual(['limit']);
    expect(issuePaths(await t.request('GET', `${hooks}/subscriptions/${item.id}/deliveries?state=lost`, { token: t.adminToken }))).toEqual(['state']);
    expect(issuePaths(await t.request('GET', `${hooks}/subscriptions/${item.id}/deliveries?cursor=%25%25`, { token: t.adminToken }))).toEqual(['cursor']);
    for (const [method, path] of [
      ['GET', '/subscriptions/NOPE'],
      ['PATCH', '/subscriptions/NOPE'],
      ['DELETE', '/subscriptions/NOPE'],
      ['GET', '/subscriptions/NOPE/deliveries'],
    ] as const) {
      expectError(await t.request(method, `${hooks}${path}`, { token: t.adminToken, body: method === 'PATCH' ? { active: true } : undefined }), 404, 'NOT_FOUND');
    }
  });

  it('pages the delivery log', async () => {
    const { item } = await subscribe(['content.saved']);
    for (const title of ['P1', 'P2', 'P3']) await createPost(title);
    await worker.runDue();
    const first = expectSuccess(await t.request('GET', `${hooks}/subscriptions/${item.id}/deliveries?limit=2`, { token: t.adminToken }));
    expect(first.items).toHaveLength(2);
    const second = expectSuccess(await t.request('GET', `${hooks}/subscriptions/${item.id}/deliveries?limit=2&cursor=${first.nextCursor}`, { token: t.adminToken }));
    expect(second.items).toHaveLength(1);
    expect(second.nextCursor).toBeUndefined();
    expect([...first.items, ...second.items].map((delivery: { id: string }) => delivery.id)).toEqual([...new Set([...first.items, ...second.items].map((delivery: { id: string }) => delivery.id))]);
    expect(expectSuccess(await t.request('GET', `${hooks}/subscriptions/${item.id}/deliveries?state=failed`, { token: t.adminToken })).items).toEqual([]);
  });

  it('answers 401 without a token and 403 without admin on every endpoint', async () => {
    const { item } = await subscribe();
    const endpoints: [string, string, unknown?][] = [
      ['GET', '/subscriptions'],
      ['POST', '/subscriptions', { url: receiver.url, events: ['*'] }],
      ['GET', `/subscriptions/${item.id}`],
      ['PATCH', `/subscriptions/${item.id}`, { active: false }],
      ['DELETE', `/subscriptions/${item.id}`],
      ['GET', `/subscriptions/${item.id}/deliveries`],
      ['POST', '/deliveries/ANY/redeliver'],
    ];
    for (const [method, path, body] of endpoints) {
      expectError(await t.request(method, `${hooks}${path}`, { body }), 401, 'UNAUTHORIZED');
      expectError(await t.request(method, `${hooks}${path}`, { token: editor, body }), 403, 'FORBIDDEN');
    }
  });
});

describe('webhooks without private addresses allowed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createPluginTestApp({ OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'false' });
  });
  afterAll(() => t.close());

  it('refuses loopback and private URLs with a 400', async () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost/hook', 'http://10.1.2.3/', 'http://192.168.0.10/', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://0.0.0.0/']) {
      expect(issuePaths(await t.request('POST', `${hooks}/subscriptions`, { token: t.adminToken, body: { url, events: ['*'] } })), url).toEqual(['url']);
    }
  });

  it('refuses at delivery time what resolves to a private address, and gives up on a slow receiver', async () => {
    const receiver = await startReceiver();
    try {
      const literal = await sendWebhook(receiver.url, {}, '{}', { timeoutMs: 1000, allowPrivate: false });
      expect(literal.error).toMatch(/^127\.0\.0\.1:\d+ is not a public address/);
      const named = await sendWebhook(receiver.url.replace('127.0.0.1', 'localhost'), {}, '{}', { timeoutMs: 1000, allowPrivate: false });
      expect(named).toEqual({ error: expect.stringMatching(/^localhost:\d+ is not a public address/) });
      expect(receiver.all).toEqual([]);
      receiver.plan.push('hang');
      expect(await sendWebhook(receiver.url, {}, '{}', { timeoutMs: 150, allowPrivate: true })).toEqual({ error: 'No complete answer within 150 ms' });
    } finally {
      await receiver.close();
    }
  });
});

describe('webhooks plugin not loaded', () => {
  it('has no routes', async () => {
    const t = await createTestApp();
    try {
      expectError(await t.request('GET', `${hooks}/subscriptions`, { token: t.adminToken }), 404, 'NOT_FOUND');
      expectError(await t.request('GET', `${api}/plugins/webhooks`, { token: t.adminToken }), 404, 'NOT_FOUND');
    } finally {
      await t.close();
    }
  });
});

describe('webhooks with two server processes on one database', () => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    t = await createPluginTestApp();
    receiver = await startReceiver();
    await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }]);
    const env = { DATABASE_URL: t.database.url, PORT: '0', LOG_LEVEL: 'info', OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true', MEDIA_DIR: '/tmp/folio-test-media' };
    for (let index = 0; index < 2; index++) servers.push(spawnServer(env));
    await Promise.all(servers.map((server) => server.waitForLog((line) => line.msg === 'folio listening', 60_000)));
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    await receiver.close();
    await t.close();
  });

  it('sends each event exactly once, whichever process wrote it', async () => {
    const { item } = expectCreated(await t.request('POST', `${hooks}/subscriptions`, { token: t.adminToken, body: { url: receiver.url, events: ['content.saved'] } }));
    const urls = await Promise.all(servers.map(async (server) => String((await server.waitForLog((line) => line.msg === 'folio listening')).url)));
    const created = 20;
    await Promise.all(
      Array.from({ length: created }, async (_, index) => {
        const response = await fetch(`${urls[index % 2]}${api}/content/posts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ data: { title: `Both ${index}` } }),
        });
        expect(response.status).toBe(201);
      }),
    );
    const settled = () => t.db.kysely.selectFrom('webhook_deliveries').select(['state', 'attempts']).where('subscription_id', '=', item.id).where('state', '=', 'succeeded').execute();
    await until(async () => (await settled()).length === created, `${created} deliveries settled`, 30_000);
    expect((await settled()).every((row) => row.attempts === 1)).toBe(true);
    expect(await t.db.kysely.selectFrom('webhook_attempts').select('id').execute()).toHaveLength(created);
    const ids = receiver.all.map((request) => request.headers['webhook-id']);
    expect(new Set(ids).size).toBe(created);
    expect(ids).toHaveLength(created);
  });
});
