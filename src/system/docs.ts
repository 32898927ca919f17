import fs from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { access, defineOperation } from '../core/operation.ts';
import type { ByteSource } from '../core/results.ts';

/**
 * The interactive reference at `/_cms/api/docs`: Swagger UI served from its npm package, so it works
 * offline and under a strict same-origin Content-Security-Policy (no inline script, no CDN).
 */
const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const packagedAssets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

export const DocsAssetParams = z.strictObject({ asset: z.enum(['swagger-ui.css', 'swagger-ui-bundle.js', 'init.js']) });

/** The reference page's own paths, for a base path such as `/_cms/api`. */
export function docsPaths(basePath: string) {
  return { page: `${basePath}/docs`, document: `${basePath}/openapi.json` };
}

export const getDocsPage = defineOperation({
  name: 'system.docs',
  access: access.public,
  run: async (): Promise<Record<never, never>> => ({}),
});

/** The OpenAPI document, built from the route declarations when the app is (`getDocument`). */
export function openApiDocumentOperation(getDocument: () => Record<string, unknown>) {
  return defineOperation({
    name: 'system.openapi',
    access: access.public,
    run: async (): Promise<Record<string, unknown>> => getDocument(),
  });
}

/** The page's script and styles: the package's files, and the few lines that start Swagger UI. */
export function docsAssetOperation(basePath: string) {
  const { document } = docsPaths(basePath);
  const init = Buffer.from(`window.ui = SwaggerUIBundle({ url: ${JSON.stringify(document)}, dom_id: '#reference', deepLinking: true, persistAuthorization: true });`);
  const cache = new Map<string, Buffer>();
  return defineOperation({
    name: 'system.docsAsset',
    access: access.public,
    run: async (_ctx, input: z.output<typeof DocsAssetParams>): Promise<ByteSource> => {
      let content = input.asset === 'init.js' ? init : cache.get(input.asset);
      if (!content) {
        content = await fs.readFile(path.join(swaggerUiDir, input.asset));
        cache.set(input.asset, content);
      }
      const bytes = content;
      return {
        contentType: packagedAssets[input.asset] ?? 'text/javascript; charset=utf-8',
        size: bytes.length,
        etag: createHash('sha256').update(bytes).digest('base64url').slice(0, 27),
        open: (range) => Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]),
      };
    },
  });
}

export function docsPage(basePath: string): string {
  const { page } = docsPaths(basePath);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Folio API reference</title>
<link rel="stylesheet" href="${page}/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="${page}/swagger-ui-bundle.js"></script>
<script src="${page}/init.js"></script>
</body>
</html>`;
}
