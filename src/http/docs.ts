import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Hono } from 'hono';
import type { AppEnv } from './types.ts';

/**
 * The interactive reference at `/_cms/api/docs`: Swagger UI served from its npm package, so it works
 * offline and under a strict same-origin Content-Security-Policy (no inline script, no CDN).
 */
const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const assets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

export function mountDocs(app: Hono<AppEnv>, basePath: string): void {
  const docsPath = `${basePath}/docs`;
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Folio API reference</title>
<link rel="stylesheet" href="${docsPath}/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="${docsPath}/swagger-ui-bundle.js"></script>
<script src="${docsPath}/init.js"></script>
</body>
</html>`;
  const init = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(`${basePath}/openapi.json`)}, dom_id: '#reference', deepLinking: true, persistAuthorization: true });`;
  const csp = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";
  const cache = new Map<string, Buffer>();

  app.get(docsPath, (c) => {
    c.header('Content-Security-Policy', csp);
    return c.html(page);
  });
  app.get(`${docsPath}/init.js`, (c) => c.body(init, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }));
  app.get(`${docsPath}/:asset{swagger-ui(?:-bundle\\.js|\\.css)}`, async (c) => {
    const name = c.req.param('asset');
    let content = cache.get(name);
    if (!content) {
      content = await fs.readFile(path.join(swaggerUiDir, name));
      cache.set(name, content);
    }
    return c.body(new Uint8Array(content), 200, { 'Content-Type': assets[name]!, 'Cache-Control': 'public, max-age=86400' });
  });
}
