// The panel's build and dev server (decisions/0042). `npm run build` (bin/build.mjs) bundles it into
// dist/admin/, which the server serves at /_cms/admin/; `npm run dev` (bin/dev.mjs) serves it with hot
// reload, passing every other /_cms/ path to the API server it starts beside it.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/_cms/admin/',
  plugins: [react()],
  // One copy of the messages' compiler and of React whatever imports them.
  resolve: { dedupe: ['react', 'react-dom'] },
  build: {
    outDir: fileURLToPath(new URL('../dist/admin', import.meta.url)),
    emptyOutDir: true,
    // No inline script or style may appear in index.html: the page's CSP forbids them.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
