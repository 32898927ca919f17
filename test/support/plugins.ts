import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createApp } from '../../src/app.ts';
import { openDatabase } from '../../src/db/connection.ts';
import { PluginHost } from '../../src/plugins/host.ts';
import { loadPlugins } from '../../src/plugins/loader.ts';
import type { PluginDefinition } from '../../src/plugins/types.ts';
import { createDeliveryWorker, type DeliveryWorker } from '../../src/plugins/webhooks/worker.ts';
import { createTestApp, type TestApp } from './harness.ts';

export const hookTimeoutMs = 150;

/** The test app with the shipped plugins (loaded as configuration names them) and any of the test's own after them. */
export async function createPluginTestApp(overrides: Record<string, string> = {}, extra: PluginDefinition<any>[] = []): Promise<TestApp> { // eslint-disable-line @typescript-eslint/no-explicit-any -- plugins of any settings
  const shipped = await loadPlugins(['webhooks', 'audit-log'], { hookTimeoutMs });
  const plugins = new PluginHost([...shipped.plugins, ...extra.map((definition) => ({ definition: definition as PluginDefinition<unknown>, source: 'test' }))], { hookTimeoutMs });
  return createTestApp({ OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true', WEBHOOK_TIMEOUT_MS: '300', ...overrides }, { plugins });
}

/** A webhook delivery worker of the test app's process, on its clock. */
export function deliveryWorker(t: TestApp): DeliveryWorker {
  return createDeliveryWorker(t.systemContext());
}

/**
 * Another app on the same database, with its own connection and caches, as a second `folio serve`
 * would have them. Requests go to it in process.
 */
export async function secondInstance(t: TestApp) {
  const db = await openDatabase(t.config.database);
  const log = pino({ level: 'silent' });
  const app = createApp({ config: t.config, db, log, storage: t.storage, clock: t.clock, plugins: t.plugins });
  return {
    /** Sent once what was committed elsewhere has reached this instance, as it reaches another process before its next request (decisions/0052). */
    async request(method: string, path: string, token: string, body?: unknown) {
      await db.changesArrived?.();
      const response = await app.request(path, { method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
    },
    close: () => db.close(),
  };
}

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { type: string; timestamp: string; data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- payloads vary by event
}

/** What the receiver does with the next request: answer with a status (and a body), redirect, or never answer. */
export type Reply = number | 'hang' | { redirect: string } | { status: number; body: string };

/**
 * A real HTTP receiver on loopback. It answers each request with the next planned reply (200 when
 * none is planned) and records every request it answered with a 2xx.
 */
export async function startReceiver() {
  const received: ReceivedWebhook[] = [];
  const all: ReceivedWebhook[] = [];
  const plan: Reply[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const reply = plan.shift() ?? 200;
      const record = { headers: request.headers, body, json: JSON.parse(body) };
      all.push(record);
      if (reply === 'hang') {
        hanging.add(response);
        return;
      }
      if (typeof reply === 'object' && 'redirect' in reply) {
        response.writeHead(302, { location: reply.redirect }).end();
        return;
      }
      if (typeof reply === 'object') {
        response.writeHead(reply.status, { 'content-type': 'text/plain; charset=utf-8' }).end(reply.body);
        return;
      }
      if (reply >= 200 && reply < 300) received.push(record);
      response.writeHead(reply).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    all,
    plan,
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
