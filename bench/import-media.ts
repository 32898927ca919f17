import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { startMediaFixtures, type MediaFixtureServer } from '../test/support/media-fixtures.ts';
import { generatedExport, generatedImageUrl } from '../test/support/wxr-generator.ts';
import { residentMb } from './body-burst.ts';
import { importFile, json, startImportServer } from './import.ts';
import { writeJpeg } from './media-files.ts';

/**
 * Issue 16's media import figures, each on a fresh server with SQLite: `images` distinct JPEGs
 * downloaded from a loopback fixture site through `POST /import/legacy/media` (the code an import
 * with includeMedia runs), one at a time and four at once, with files per second and the server's
 * peak RSS; then the URL rewrite of `entries` imported entries with a map of `mapSize` URLs.
 */
export interface ImportMediaFigures {
  images: number;
  imageBytes: number;
  downloads: { concurrency: number; seconds: number; filesPerSecond: number; downloaded: number; failed: number; peakRssMb: number }[];
  rewrite: { entries: number; mapSize: number; importSeconds: number; seconds: number; changed: number; urls: number };
}

/** The generated site of the rewrite: nothing is fetched from it. */
const site = 'https://media-bench.example.com';

export async function measureImportMedia(workDir: string, images: number, entries: number, mapSize: number): Promise<ImportMediaFigures> {
  const fixtures = await startMediaFixtures();
  try {
    const imageBytes = await serveImages(fixtures, workDir, images);
    const attachments = Array.from({ length: images }, (_, index) => ({ id: String(index), url: `${fixtures.origin}${imagePath(index)}` }));
    const downloads = [];
    for (const concurrency of [1, 4]) {
      const { server, base, headers } = await startImportServer(workDir, `import-media-${concurrency}`, { OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true', IMPORT_MEDIA_CONCURRENCY: String(concurrency) });
      try {
        const started = performance.now();
        const response = await fetch(`${base}/import/legacy/media`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ attachments }) });
        const result = (await json(response)) as { downloaded: number; failed: number };
        const seconds = (performance.now() - started) / 1000;
        downloads.push({ concurrency, seconds, filesPerSecond: images / seconds, downloaded: result.downloaded, failed: result.failed, peakRssMb: residentMb(server.pid!, 'VmHWM') });
      } finally {
        server.kill('SIGTERM');
      }
    }
    return { images, imageBytes, downloads, rewrite: await measureRewrite(workDir, entries, mapSize) };
  } finally {
    await fixtures.close();
  }
}

function imagePath(index: number): string {
  return `/wp-content/uploads/2024/05/photo-${index}.jpg`;
}

/** One photograph-like JPEG, made distinct `count` times by a comment segment after its start: the same size, other bytes. */
async function serveImages(fixtures: MediaFixtureServer, workDir: string, count: number): Promise<number> {
  const file = path.join(workDir, 'import-media-photo.jpg');
  await writeJpeg(file, 800, 600);
  const photo = fs.readFileSync(file);
  for (let index = 0; index < count; index++) {
    const text = Buffer.from(`bench image ${index}`);
    const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0, text.length + 2]), text]);
    fixtures.serve(imagePath(index), Buffer.concat([photo.subarray(0, 2), comment, photo.subarray(2)]), 'image/jpeg');
  }
  return photo.length;
}

/** `entries` generated posts and pages, each showing one of `mapSize` uploads, imported; then the seconds `POST /import/legacy/rewrite-urls` takes with a map of every upload. */
async function measureRewrite(workDir: string, entries: number, mapSize: number): Promise<ImportMediaFigures['rewrite']> {
  const file = path.join(workDir, 'import-media-rewrite.xml');
  await pipeline(generatedExport({ posts: entries, contentBytes: 400, site, images: mapSize }), fs.createWriteStream(file));
  const { server, base, headers } = await startImportServer(workDir, 'import-media-rewrite');
  try {
    const { importMs } = await importFile(base, headers, file);
    const urlMap = Object.fromEntries(Array.from({ length: mapSize }, (_, index) => [generatedImageUrl(site, index), `https://cdn.example.net/media/image-${index}.jpg`]));
    const started = performance.now();
    const result = await json(await fetch(`${base}/import/legacy/rewrite-urls`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ urlMap }) }));
    return { entries, mapSize, importSeconds: importMs / 1000, seconds: (performance.now() - started) / 1000, changed: result.entries as number, urls: result.urls as number };
  } finally {
    server.kill('SIGTERM');
    fs.rmSync(file, { force: true });
  }
}

export function printImportMedia(figures: ImportMediaFigures): void {
  console.log(`\nWordPress media import (${figures.images} distinct ${Math.round(figures.imageBytes / 1024)} KiB JPEGs from a loopback site, SQLite, a fresh server each):`);
  for (const run of figures.downloads) {
    console.log(
      `  concurrency ${run.concurrency}: ${run.seconds.toFixed(1)} s, ${run.filesPerSecond.toFixed(0)} files/s ` +
        `(${run.downloaded} downloaded, ${run.failed} failed), server peak RSS ${run.peakRssMb.toFixed(0)} MB`,
    );
  }
  const { rewrite } = figures;
  console.log(
    `  URL rewrite of ${rewrite.entries} imported entries (imported in ${rewrite.importSeconds.toFixed(1)} s) with a ${rewrite.mapSize}-URL map: ` +
      `${rewrite.seconds.toFixed(1)} s (${rewrite.changed} entries, ${rewrite.urls} URLs changed)`,
  );
}
