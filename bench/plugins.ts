import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config.ts';
import { newId } from '../src/core/ids.ts';
import { openDatabase, type Db } from '../src/db/connection.ts';
import { newDelivery } from '../src/plugins/webhooks/store.ts';

/**
 * Issue 14's figures. The cost of the plugin system on the hot path: `GET` an entry and `POST` a
 * create with both shipped plugins enabled against both disabled, in the same run. Enabled is
 * measured twice for creates: with the webhook subscription inactive (the plugin system's own cost:
 * hooks, the queued event, the audit record, the hand-over), and with it subscribed to every event,
 * so each create also makes a delivery that the same server sends while the creates go on. Then
 * webhook deliveries per second to a loopback receiver: a batch of deliveries put in the outbox at
 * once, timed from the first to the last the receiver gets.
 */
export interface PluginFigures {
  get: { enabled: number; disabled: number };
  create: { enabled: number; disabled: number; subscribed: number };
  deliveries: { count: number; seconds: number; perSecond: number };
}

type Measure = (path: string, scenario: { method?: 'GET' | 'POST'; body?: (n: number) => unknown }) => Promise<{ requestsPerSecond: number }>;

export interface PluginBenchOptions {
  databaseUrl: string;
  folioUrl: string;
  token: string;
  entryPath: string;
  createPath: string;
  createBody: (n: number) => unknown;
  measure: Measure;
}

const batch = Number(process.env.BENCH_WEBHOOK_DELIVERIES ?? 2000);

export async function measurePlugins(options: PluginBenchOptions): Promise<PluginFigures> {
  const receiver = await startReceiver();
  const db = await openDatabase(loadConfig({ DATABASE_URL: options.databaseUrl, LOG_LEVEL: 'silent' }).database);
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${options.folioUrl}/_cms/api${path}`, {
      method,
      headers: { authorization: `Bearer ${options.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { data: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- the bench reads a field or two
  };
  // What a round queued is handed over and sent before the next starts, so no round pays for
  // another's deliveries, and the deliveries' figure counts only its own.
  const drained = async () => {
    const count = (query: { executeTakeFirstOrThrow(): Promise<{ count: number }> }) => query.executeTakeFirstOrThrow().then((row) => Number(row.count));
    const unfinished = async () =>
      (await count(db.kysely.selectFrom('plugin_events').select((eb) => eb.fn.countAll<number>().as('count')))) +
      (await count(db.kysely.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<number>().as('count')).where('state', 'in', ['pending', 'sending'])));
    while ((await unfinished()) > 0) await new Promise((resolve) => setTimeout(resolve, 200));
  };
  const switchBoth = async (action: 'enable' | 'disable') => {
    for (const id of ['webhooks', 'audit-log']) await call('POST', `/plugins/${id}/${action}`);
  };
  try {
    const { data } = await call('POST', '/plugins/webhooks/subscriptions', { url: receiver.url, events: ['*'] });
    const subscriptionId = data.item.id as string;
    const subscribe = (active: boolean) => call('PATCH', `/plugins/webhooks/subscriptions/${subscriptionId}`, { active });
    // Each round creates entries of titles of its own, so no round pays for numbering taken slugs.
    // The states take turns in three cycles, each starting one further along, so every state is
    // measured once first, once second and once last, and a drift of the machine (or what a state
    // leaves to the next) weighs on all alike. A round of creates first, not counted, settles the
    // server: the first creates after its start were measured 15-20% slower whatever the state.
    await options.measure(options.createPath, { method: 'POST', body: (n) => options.createBody(n) });
    await drained();
    const totals = { get: { enabled: 0, disabled: 0 }, create: { enabled: 0, disabled: 0, subscribed: 0 } };
    const states = ['enabled', 'disabled', 'subscribed'] as const;
    const rounds = states.flatMap((_, cycle) => states.map((_, position) => states[(cycle + position) % states.length]!));
    for (const [index, state] of rounds.entries()) {
      await switchBoth(state === 'disabled' ? 'disable' : 'enable');
      if (state !== 'disabled') await subscribe(state === 'subscribed');
      if (state !== 'subscribed') totals.get[state] += (await options.measure(options.entryPath, {})).requestsPerSecond / states.length;
      totals.create[state] += (await options.measure(options.createPath, { method: 'POST', body: (n) => options.createBody((index + 1) * 10_000_000 + n) })).requestsPerSecond / states.length;
      await drained();
    }
    await switchBoth('enable');
    await subscribe(true);
    return { ...totals, deliveries: await measureDeliveries(db, subscriptionId, receiver) };
  } finally {
    await db.close();
    await receiver.close();
  }
}

/** Queues `batch` deliveries at once and times them from the first the receiver gets to the last. */
async function measureDeliveries(db: Db, subscriptionId: string, receiver: Receiver): Promise<PluginFigures['deliveries']> {
  receiver.times.length = 0;
  const now = new Date().toISOString();
  const payload = JSON.stringify({ type: 'content.saved', timestamp: now, data: { bench: true } });
  const rows = Array.from({ length: batch }, (_, index) => newDelivery(subscriptionId, { messageId: `msg_${newId()}`, eventType: 'content.saved', orderingKey: `bench:${index}`, payload, now }));
  for (let start = 0; start < rows.length; start += 500) await db.kysely.insertInto('webhook_deliveries').values(rows.slice(start, start + 500)).execute();
  const deadline = Date.now() + 300_000;
  while (receiver.times.length < batch && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  const seconds = (receiver.times[receiver.times.length - 1]! - receiver.times[0]!) / 1000;
  return { count: receiver.times.length, seconds, perSecond: (receiver.times.length - 1) / seconds };
}

interface Receiver {
  url: string;
  /** When each delivery arrived (ms). */
  times: number[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const times: number[] = [];
  const server = http.createServer((request, response) => {
    request.resume().on('end', () => {
      times.push(performance.now());
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    times,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export function printPlugins(figures: PluginFigures): void {
  const change = (enabled: number, disabled: number) => {
    const lower = (1 - enabled / disabled) * 100;
    return lower >= 0 ? `${lower.toFixed(1)}% lower` : `${(-lower).toFixed(1)}% higher`;
  };
  const line = (name: string, enabled: number, disabled: number, target?: string) =>
    `${name.padEnd(34)} ${enabled.toFixed(0).padStart(6)} req/s against ${disabled.toFixed(0).padStart(6)} req/s off: ${change(enabled, disabled)}${target ? ` (target ${target})` : ''}`;
  console.log('\nPlugins (webhooks and audit-log) enabled against disabled:');
  console.log(line('GET entry', figures.get.enabled, figures.get.disabled, 'at most 10%'));
  console.log(line('POST create', figures.create.enabled, figures.create.disabled, 'at most 10%'));
  console.log(line('POST create, each sending a webhook', figures.create.subscribed, figures.create.disabled));
  const { count, seconds, perSecond } = figures.deliveries;
  console.log(`Webhook deliveries to a loopback receiver: ${count} in ${seconds.toFixed(2)} s, ${perSecond.toFixed(0)} per second (one process)`);
}
