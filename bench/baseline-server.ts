import { serve } from '@hono/node-server';
import { Hono } from 'hono';

/**
 * The baseline: a bare Hono JSON route served by the same runtime, loader and HTTP adapter as Folio,
 * so the ratio measures what Folio adds (middleware, auth, database, validation).
 */
const app = new Hono();
app.get('/', (c) => c.json({ success: true, data: { siteTitle: 'Folio', tagline: '', postsPerPage: 10 } }));
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });
