// `npm run dev` (docs/decisions/0042): the server from its TypeScript sources, restarted on each change
// (tsx watch), behind the panel's Vite dev server, which reloads the panel as its files change. Open
// the address Vite prints: /_cms/admin/ is the panel from admin/, every other /_cms/ path goes on to
// the server. PORT is that address's port (default 3000); the server itself listens on the next one.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createServer } from 'vite';
import { generateApiTypes } from './build-panel.mjs';
import { root } from './compiled.mjs';

const port = Number(process.env.PORT ?? 3000);
const apiPort = port + 1;
// Links the server hands out (setup, sign-in mails) and the origin passkeys are bound to: the address people open.
const publicUrl = process.env.PUBLIC_URL ?? `http://localhost:${port}`;

await generateApiTypes();
const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const server = spawn(process.execPath, [tsx, 'watch', '--conditions=development', 'src/main.ts', 'serve'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PORT: String(apiPort), PUBLIC_URL: publicUrl },
});

const vite = await createServer({
  configFile: path.join(root, 'admin/vite.config.ts'),
  server: {
    port,
    strictPort: true,
    // The Host header is kept, so the server sees the origin the browser is on (its CSRF check, passkeys).
    proxy: { '^/_cms/(?!admin(?:/|$))': { target: `http://127.0.0.1:${apiPort}` }, '^/$': { target: `http://127.0.0.1:${apiPort}` } },
  },
});
await vite.listen();
vite.printUrls();

const stop = async () => {
  server.kill('SIGTERM');
  await vite.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.on('exit', (code) => {
  console.error(`folio dev: the server's watcher stopped (${code}); stopping the panel's dev server too.`);
  void stop();
});
