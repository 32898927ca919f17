// The panel's build and dev server (decisions/0042). `npm run build` (bin/build.mjs) bundles it into
// dist/admin/, which the server serves at /_cms/admin/; `npm run dev` (bin/dev.mjs) serves it with hot
// reload, passing every other /_cms/ path to the API server it starts beside it.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const base = '/_cms/admin/';

/**
 * src/early.ts, which starts the first screen's API reads, as the page's first script and a chunk of
 * its own: an entry of the page itself would be bundled into the main chunk and run only once all of
 * it (React DOM, the router…) had loaded and been compiled, which is what it is there to overlap.
 */
function earlyScript(): Plugin {
  return {
    name: 'folio-early-script',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const chunk = Object.values(context.bundle ?? {}).find((output) => output.type === 'chunk' && output.isEntry && output.name === 'early');
        // The dev server serves the source itself.
        const src = chunk?.type === 'chunk' ? `${base}${chunk.fileName}` : `${base}src/early.ts`;
        return [{ tag: 'script', attrs: { type: 'module', crossorigin: true, src }, injectTo: 'head-prepend' }];
      },
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base,
  plugins: [react(), earlyScript()],
  // One copy of the messages' compiler and of React whatever imports them.
  resolve: { dedupe: ['react', 'react-dom'] },
  build: {
    outDir: fileURLToPath(new URL('../dist/admin', import.meta.url)),
    emptyOutDir: true,
    // No inline script or style may appear in index.html: the page's CSP forbids them.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    rolldownOptions: { input: { index: fileURLToPath(new URL('index.html', import.meta.url)), early: fileURLToPath(new URL('src/early.ts', import.meta.url)) } },
    reportCompressedSize: false,
  },
});
