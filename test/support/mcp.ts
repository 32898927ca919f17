import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import pino from 'pino';
import { createApp } from '../../src/app.ts';
import type { TestApp } from './harness.ts';

export interface McpSocket {
  /** The MCP endpoint's URL on the socket. */
  url: URL;
  /** An SDK client, initialized over real HTTP with the token as its bearer credential (and any other headers, e.g. a browser's Origin). */
  connect(token: string, headers?: Record<string, string>): Promise<Client>;
  /** An SDK client whose requests carry exactly these headers (a session cookie instead of a token). */
  connectWith(headers: Record<string, string>): Promise<Client>;
  close(): Promise<void>;
}

/** The test app's database behind a real socket, so the SDK's own HTTP client can talk to it. */
export async function serveMcp(testApp: TestApp): Promise<McpSocket> {
  const app = createApp({ config: testApp.config, db: testApp.db, storage: testApp.storage, log: pino({ level: 'silent' }), clock: testApp.clock, plugins: testApp.plugins });
  const server = await new Promise<ServerType>((resolve, reject) => {
    const listening = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(listening));
    listening.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = new URL(`http://127.0.0.1:${port}/_cms/api/mcp`);
  const clients: Client[] = [];
  const connectWith = async (headers: Record<string, string>) => {
    const client = new Client({ name: 'folio-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    clients.push(client);
    return client;
  };
  return {
    url,
    connect: (token, headers = {}) => connectWith({ ...headers, authorization: `Bearer ${token}` }),
    connectWith,
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeIdleConnections' in server) server.closeIdleConnections();
      });
    },
  };
}
