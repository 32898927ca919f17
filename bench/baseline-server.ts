import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { addSameWorkRoutes } from './same-work.ts';

/**
 * The baseline: a bare Hono JSON route served by the same runtime, loader and HTTP adapter as Folio,
 * so the ratio measures what Folio adds (middleware, auth, database, validation). `/static` is a bare
 * static-file handler for the media benchmark: STATIC_FILE streamed from disk, stat'd per request as
 * a static server does, sent the way Hono's serveStatic sends it on Node 22. `/upload` is an upload
 * with nothing but the HTTP path: the raw body piped to a file beside STATIC_FILE, nothing parsed.
 * With SAME_WORK_DATABASE_URL, `/same/…` are the same-work baselines on Folio's database (same-work.ts).
 */
const app = new Hono();
app.get('/', (c) => c.json({ success: true, data: { siteTitle: 'Folio', tagline: '', postsPerPage: 10 } }));
app.get('/static', async (c) => {
  const file = process.env.STATIC_FILE ?? '';
  const { size } = await fs.promises.stat(file);
  const body = Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>;
  return c.body(body, 200, { 'content-type': 'application/pdf', 'content-length': String(size) });
});
app.post('/upload', async (c) => {
  const target = path.join(path.dirname(process.env.STATIC_FILE ?? ''), 'bare-upload.bin');
  const incoming = (c.env as { incoming: IncomingMessage }).incoming;
  await pipeline(incoming, fs.createWriteStream(target));
  return c.json({ size: (await fs.promises.stat(target)).size }, 201);
});
if (process.env.SAME_WORK_DATABASE_URL) addSameWorkRoutes(app, process.env.SAME_WORK_DATABASE_URL);
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });
// Ended as a server is (SIGTERM), so that `--cpu-prof` writes the baseline's profile too.
process.once('SIGTERM', () => process.exit(0));
