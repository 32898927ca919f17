import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { ByteSource } from '../core/results.ts';

/**
 * The built panel (decisions/0042): dist/admin/ as `npm run build` leaves it, index.html and the
 * hashed files under assets/, each beside its `.br` and `.gz` compressed at build. Found from this
 * module's place, which is two folders below the repository in src/ and in dist/ alike.
 */
export const builtPanelDir = fileURLToPath(new URL('../../dist/admin/', import.meta.url));

export type Encoding = 'br' | 'gzip';

export interface PanelAsset {
  identity: ByteSource;
  /** The precompressed forms the build left, by encoding. */
  encoded: Partial<Record<Encoding, ByteSource>>;
}

export interface BuiltPanel {
  indexHtml: string;
  assets: ReadonlyMap<string, PanelAsset>;
}

const types: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};
const encodings: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

function source(bytes: Buffer, contentType: string, encoding?: Encoding): ByteSource {
  return {
    contentType,
    size: bytes.length,
    // Each encoding is its own representation, so each has its own validator.
    etag: createHash('sha256').update(bytes).digest('base64url').slice(0, 27),
    ...(encoding ? { encoding } : {}),
    open: (range) => Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]),
  };
}

/**
 * Reads the whole built panel into memory (a few hundred kilobytes), or undefined when there is no
 * build. Read once per process: a rebuild is served after a restart, whole, never half of each.
 */
export async function readBuiltPanel(dir: string): Promise<BuiltPanel | undefined> {
  let indexHtml: string;
  try {
    indexHtml = await fs.readFile(path.join(dir, 'index.html'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const assets = new Map<string, PanelAsset>();
  const assetDir = path.join(dir, 'assets');
  const names = await fs.readdir(assetDir).catch(() => [] as string[]);
  for (const name of names) {
    const type = types[path.extname(name)];
    if (type === undefined) continue; // the .br and .gz files, read with their original below
    const encoded: PanelAsset['encoded'] = {};
    for (const [encoding, suffix] of Object.entries(encodings) as [Encoding, string][]) {
      if (names.includes(name + suffix)) encoded[encoding] = source(await fs.readFile(path.join(assetDir, name + suffix)), type, encoding);
    }
    assets.set(name, { identity: source(await fs.readFile(path.join(assetDir, name)), type), encoded });
  }
  return { indexHtml, assets };
}
