import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiRoutes, createApp } from '../src/app.ts';
import { spendByClient } from '../src/auth/rate-limit.ts';
import { sweepExpired } from '../src/system/housekeeping.ts';
import { access, defineOperation } from '../src/core/operation.ts';
import { openDatabase } from '../src/db/connection.ts';
import { defineRoute } from '../src/http/route.ts';
import { api } from './support/content.ts';
import { createTestApp, expectError, expectSuccess, type TestApp } from './support/harness.ts';

/** A public endpoint limited to three calls a minute per client, or per `account` without an address. */
const limited = defineOperation({
  name: 'test.limited',
  access: access.public,
  async run(ctx, input: { account?: string }): Promise<{ address: string | null }> {
    await spendByClient(ctx, { name: 'test', limit: 3, windowMs: 60_000 }, input.account);
    return { address: ctx.clientAddress ?? null };
  },
});
const routes = [defineRoute({ method: 'post', path: '/test/limited', tag: 'Test', summary: 'A limited endpoint', operation: limited, body: z.strictObject({ account: z.string().optional() }), response: z.object({ address: z.string().nullable() }) })];

async function listen(t: TestApp, overrides: Record<string, string>) {
  const config = { ...t.config, ...overrides } as typeof t.config;
  const app = createApp({ config, db: t.db, storage: t.storage, log: pino({ level: 'silent' }), clock: t.clock, routes: [...apiRoutes, ...routes] });
  const server = await new Promise<ServerType>((resolve) => {
    const listening = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  return {
    post: (headers: Record<string, string> = {}, body: unknown = {}) =>
      fetch(`http://127.0.0.1:${port}${api}/test/limited`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { routes });
});
afterAll(() => t.close());

describe('rate limits', () => {
  it('answer 429 RATE_LIMITED with Retry-After past the limit, until the window ends', async () => {
    for (let i = 0; i < 3; i += 1) expectSuccess(await t.request('POST', `${api}/test/limited`, { body: { account: 'ada@example.com' } }));
    const refused = await t.request('POST', `${api}/test/limited`, { body: { account: 'ada@example.com' } });
    const error = expectError(refused, 429, 'RATE_LIMITED');
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(error.details.retryAfter).toBe(60);
    t.clock.advance(45_000);
    expect((await t.request('POST', `${api}/test/limited`, { body: { account: 'ada@example.com' } })).headers.get('retry-after')).toBe('15');
    // Without a client address the account is what is counted: another account is not limited.
    expectSuccess(await t.request('POST', `${api}/test/limited`, { body: { account: 'grace@example.com' } }));
    t.clock.advance(15_000);
    expectSuccess(await t.request('POST', `${api}/test/limited`, { body: { account: 'ada@example.com' } }));
  });

  it('are cleared by the housekeeping sweep a day after their window started, not by requests', async () => {
    const account = { account: 'swept@example.com' };
    expectSuccess(await t.request('POST', `${api}/test/limited`, { body: account }));
    const counters = () => t.db.kysely.selectFrom('rate_limits').select('key').where('key', '=', 'test:account:swept@example.com').execute();
    await sweepExpired(t);
    expect(await counters()).toHaveLength(1);
    t.clock.advance(86_400_001);
    await sweepExpired(t);
    expect(await counters()).toEqual([]);
  });

  it('hold across processes: the count is in the database', async () => {
    const second = await openDatabase(t.config.database);
    try {
      const other = createApp({ config: t.config, db: second, storage: t.storage, log: pino({ level: 'silent' }), clock: t.clock, routes: [...apiRoutes, ...routes] });
      const call = (app: { request: typeof other.request }) => app.request(`${api}/test/limited`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: 'shared@example.com' }) });
      expect((await t.request('POST', `${api}/test/limited`, { body: { account: 'shared@example.com' } })).status).toBe(200);
      expect((await call(other)).status).toBe(200);
      expect((await t.request('POST', `${api}/test/limited`, { body: { account: 'shared@example.com' } })).status).toBe(200);
      expect((await call(other)).status).toBe(429);
    } finally {
      await second.close();
    }
  });

  it("count the socket's address when no proxy is trusted, whatever X-Forwarded-For says", async () => {
    t.clock.advance(60_000);
    const server = await listen(t, { trustProxy: 0 } as never);
    try {
      const first = await server.post({ 'x-forwarded-for': '203.0.113.1' });
      expect(((await first.json()) as { data: { address: string } }).data.address).toBe('127.0.0.1');
      await server.post({ 'x-forwarded-for': '203.0.113.2' });
      await server.post({ 'x-forwarded-for': '203.0.113.3' });
      const refused = await server.post({ 'x-forwarded-for': '203.0.113.4' }, { account: 'someone-else' });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
    } finally {
      await server.close();
    }
  });

  it('count the forwarded address behind trusted proxies, ignoring what the client wrote left of it', async () => {
    t.clock.advance(60_000);
    const server = await listen(t, { trustProxy: 1 } as never);
    try {
      const seen = await server.post({ 'x-forwarded-for': 'forged, 198.51.100.7' });
      expect(((await seen.json()) as { data: { address: string } }).data.address).toBe('198.51.100.7');
      for (let i = 0; i < 2; i += 1) expect((await server.post({ 'x-forwarded-for': `forged-${i}, 198.51.100.7` })).status).toBe(200);
      expect((await server.post({ 'x-forwarded-for': '198.51.100.7' })).status).toBe(429);
      expect((await server.post({ 'x-forwarded-for': '198.51.100.8' })).status).toBe(200);
      // No header behind a proxy: the socket's address (a health check from the proxy's own host).
      expect(((await (await server.post()).json()) as { data: { address: string } }).data.address).toBe('127.0.0.1');
    } finally {
      await server.close();
    }
  });
});
