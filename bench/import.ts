import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { generatedCounts, generatedExport } from '../test/support/wxr-generator.ts';
import { followChildrenPeak, residentMb } from './body-burst.ts';
import { benchAdmin, withBenchContext } from './context.ts';
import { freePort, startFolio, waitForHttp } from './process.ts';

/**
 * The WordPress import (issue 15): a generated export streamed to a fresh server, analysed, prepared
 * and imported as the API's users do. Items per second from `execute` to the job's end, the server's
 * peak resident memory (VmHWM) over the whole flow, upload included, and that of the process the
 * server runs the import in (docs/decisions/0066).
 */
export interface ImportFigures {
  posts: number;
  comments: number;
  fileMb: number;
  analyzeMs: number;
  importMs: number;
  itemsPerSecond: number;
  peakRssMb: number;
  importProcessPeakRssMb: number;
}

/** `commentsPerPost`: comments on each post (pages have none), imported with their posts. */
export async function measureImport(workDir: string, posts: number, contentBytes: number, commentsPerPost = 0): Promise<ImportFigures> {
  const name = `${posts}${commentsPerPost > 0 ? `-comments-${commentsPerPost}` : ''}`;
  const file = path.join(workDir, `export-${name}.xml`);
  await pipeline(generatedExport({ posts, contentBytes, site: `https://bench-${name}.example.com`, comments: commentsPerPost }), fs.createWriteStream(file));
  const { server, base, headers } = await startImportServer(workDir, `import-${name}`);
  try {
    const importProcess = followChildrenPeak(server.pid!);
    const { analyzeMs, importMs } = await importFile(base, headers, file);
    const importProcessPeakRssMb = importProcess.stop();
    return { posts, comments: generatedCounts(posts).posts * commentsPerPost, fileMb: fs.statSync(file).size / 1024 / 1024, analyzeMs, importMs, itemsPerSecond: posts / (importMs / 1000), peakRssMb: residentMb(server.pid!, 'VmHWM'), importProcessPeakRssMb };
  } finally {
    server.kill('SIGTERM');
    fs.rmSync(file, { force: true });
  }
}

/** A fresh server on its own SQLite database (`name`) and media directory, with an admin's token for it. */
export async function startImportServer(workDir: string, name: string, env: Record<string, string> = {}): Promise<{ server: ChildProcess; base: string; headers: Record<string, string> }> {
  const databaseUrl = `file:${path.join(workDir, `${name}.db`)}`;
  const { token } = await withBenchContext(databaseUrl, (ctx) => benchAdmin(ctx, `${name}-bench@example.com`));
  const port = await freePort();
  const server = startFolio({ PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', LOG_FORMAT: 'json', MEDIA_DIR: path.join(workDir, `media-${name}`), SCHEDULER_INTERVAL_MS: '100', ...env });
  const base = `http://127.0.0.1:${port}/_cms/api`;
  try {
    await waitForHttp(`${base}/health`);
  } catch (error) {
    server.kill('SIGTERM');
    throw error;
  }
  return { server, base, headers: { authorization: `Bearer ${token}` } };
}

/** Analyses, prepares (every post type to its suggested collection) and imports `file` through the API, waiting for the job. */
export async function importFile(base: string, headers: Record<string, string>, file: string, options: Record<string, boolean> = {}): Promise<{ analyzeMs: number; importMs: number }> {
  const form = new FormData();
  form.append('file', await fs.openAsBlob(file, { type: 'application/xml' }), 'export.xml');
  let started = performance.now();
  const analysis = await json(await fetch(`${base}/import/legacy/analyze`, { method: 'POST', headers, body: form }));
  const analyzeMs = performance.now() - started;
  const postTypes = (analysis.postTypes as { name: string; collection: string }[]).map((type) => ({ name: type.name, collection: type.collection, enabled: true }));
  await json(await fetch(`${base}/import/legacy/prepare`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ analysisId: analysis.analysisId, postTypes }) }));
  started = performance.now();
  // Not held open: fetch stops waiting for an answer's headers after 300 s, less than a large import takes.
  const job = (await json(await fetch(`${base}/import/legacy/execute`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', prefer: 'respond-async' }, body: JSON.stringify({ analysisId: analysis.analysisId, options }) }))).item;
  let state = job.state as string;
  while (state !== 'succeeded' && state !== 'failed') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    state = (await json(await fetch(`${base}/import/jobs/${job.id}`, { headers }))).item.state;
  }
  const importMs = performance.now() - started;
  if (state !== 'succeeded') throw new Error(`the import failed: ${JSON.stringify(await json(await fetch(`${base}/import/jobs/${job.id}`, { headers })))}`);
  return { analyzeMs, importMs };
}

export async function json(response: Response): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any -- bench reads what it asked for
  const body = (await response.json()) as { success: boolean; data: Record<string, unknown> };
  if (!response.ok || !body.success) throw new Error(`${response.status} ${JSON.stringify(body)}`);
  return body.data;
}

export function printImport(figures: ImportFigures[]): void {
  console.log('\nWordPress import (generated export, SQLite, a fresh server each):');
  for (const run of figures) {
    console.log(
      `  ${run.posts} posts${run.comments > 0 ? ` with ${run.comments} comments` : ''}, ${run.fileMb.toFixed(0)} MB: analyse ${(run.analyzeMs / 1000).toFixed(1)} s, import ${(run.importMs / 1000).toFixed(1)} s ` +
        `(${run.itemsPerSecond.toFixed(0)} items/s), server peak RSS ${run.peakRssMb.toFixed(0)} MB, its import process's ${run.importProcessPeakRssMb.toFixed(0)} MB`,
    );
  }
}
