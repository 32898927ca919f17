import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';

/**
 * A loopback stand-in for a WordPress site's uploads: files by path, and the ways a download goes
 * wrong (404, an HTML page, an answer that never comes, a 503 before the file).
 */
export interface MediaFixtureServer {
  origin: string;
  /** Requests received, by path. */
  hits: Map<string, number>;
  /** Serves `bytes` at `path` (with `failFirst`, answers 503 that many times first). */
  serve(path: string, bytes: Buffer, type?: string, failFirst?: number): void;
  /** Holds the answers at `path` (the requests are counted) until the returned function is called. */
  hold(path: string): () => void;
  close(): Promise<void>;
}

export async function startMediaFixtures(): Promise<MediaFixtureServer> {
  const files = new Map<string, { bytes: Buffer; type: string; failFirst: number }>();
  const hits = new Map<string, number>();
  const held = new Map<string, Promise<void>>();
  const sockets = new Set<Socket>();
  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://fixture').pathname;
    const count = (hits.get(path) ?? 0) + 1;
    hits.set(path, count);
    if (path.startsWith('/hang/')) return; // never answers: the importer's time limit ends it
    if (path.startsWith('/page/')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html><body>Not found, but pretty</body></html>');
      return;
    }
    const file = files.get(path);
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (count <= file.failFirst) {
      response.writeHead(503).end('busy');
      return;
    }
    const send = () => response.writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length }).end(file.bytes);
    const hold = held.get(path);
    if (hold) void hold.then(send);
    else send();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    serve(path, bytes, type = 'image/png', failFirst = 0) {
      files.set(path, { bytes, type, failFirst });
    },
    hold(path) {
      let release!: () => void;
      held.set(path, new Promise((resolve) => (release = resolve)));
      return () => {
        held.delete(path);
        release();
      };
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
