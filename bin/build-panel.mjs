// The panel's half of `npm run build` (docs/decisions/0042): its API types from the server's OpenAPI
// document, then Vite's bundle into `outDir`, then a brotli and a gzip copy of each hashed file, made
// once here at the strongest settings so the server never compresses on a request.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { root } from './compiled.mjs';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** What is worth compressing; images and fonts already are. */
const compressible = /\.(?:js|css|svg|json|txt|map)$/;

/** Runs a Node.js script to its end, failing with its exit code. */
export function runNode(args, label) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${label} failed (${code ?? signal})`))));
  });
}

/** admin/src/api/schema.d.ts from the routes as the server declares them (bin/panel-api-types.ts). */
export function generateApiTypes() {
  const tsx = createRequire(import.meta.url).resolve('tsx/cli');
  return runNode([tsx, path.join(root, 'bin/panel-api-types.ts')], 'the panel API types');
}

export async function buildPanel(outDir) {
  const generating = generateApiTypes();
  // Always the production bundle: vitest's global setup runs this with NODE_ENV=test inherited, which
  // made Vite bundle React's development build (twice the size, slower), unlike `npm run build`.
  process.env.NODE_ENV = 'production';
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'admin/vite.config.ts'), mode: 'production', logLevel: 'warn', build: { outDir } });
  const assets = path.join(outDir, 'assets');
  await Promise.all(
    fs.readdirSync(assets).filter((name) => compressible.test(name)).map(async (name) => {
      const bytes = fs.readFileSync(path.join(assets, name));
      const [br, gz] = await Promise.all([
        brotli(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
        gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      fs.writeFileSync(path.join(assets, `${name}.br`), br);
      fs.writeFileSync(path.join(assets, `${name}.gz`), gz);
    }),
  );
  await generating;
}
