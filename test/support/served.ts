import { expect } from 'vitest';
import { api } from './content.ts';
import { spawnServer, type ServerProcess } from './process.ts';

/** A `folio serve` child process on a free port, and its base URL. */
export interface Server {
  process: ServerProcess;
  url: string;
}

/** Starts `folio serve` with `env` and resolves once it listens. */
export async function startServer(env: Record<string, string>): Promise<Server> {
  const server = spawnServer({ LOG_LEVEL: 'info', PORT: '0', ...env });
  const listening = await server.waitForLog((line) => line.msg === 'folio listening', 60_000);
  return { process: server, url: String(listening.url) };
}

/** One JSON request to the server's API with a bearer token; the body parsed when it is JSON. */
export async function call(server: Server, token: string, method: string, route: string, body?: unknown) {
  const response = await fetch(`${server.url}${api}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => undefined)) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
}

/** Uploads a text file through the API as the token's user; expects it stored. */
export async function uploadText(server: Server, token: string, filename: string, text: string): Promise<{ id: string; storageKey: string; url: string }> {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/plain' }), filename);
  const response = await fetch(`${server.url}${api}/media/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const body = (await response.json()) as { data: { item: { id: string; storageKey: string; url: string } } };
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body.data.item;
}

/** A media file's bytes as the API serves them. */
export async function fileBytes(server: Server, token: string, storageKey: string): Promise<{ status: number; bytes: Uint8Array }> {
  const response = await fetch(`${server.url}${api}/media/file/${storageKey}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) };
}
