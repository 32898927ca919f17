import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { residentMb } from './body-burst.ts';
import { alternatingLoads, type HttpLoad } from './http-load.ts';
import { makeDistinct, uploadFile, writeJpeg, writePdf } from './media-files.ts';
import { freePort, median, startFolio, waitForHttp } from './process.ts';

/**
 * Issue 9's media figures, on a fresh Folio server with local storage in the bench's temp dir:
 * a streamed 50 MiB upload against `cp` of the same file on the same disk (median of 3), the
 * server's peak RSS meanwhile, a 5 MiB file served against the baseline's bare static handler, and
 * an image transform cold then cached.
 */

const MiB = 1024 * 1024;
const uploadBytes = 50 * MiB;
const servedBytes = 5 * MiB;
const uploadRuns = 3;
const transformQuery = '?w=640&format=webp';
const uploadPath = '/_cms/api/media/upload';

/** The file the baseline server's `/static` route serves; the same bytes are uploaded to Folio. */
export function mediaStaticFile(workDir: string): string {
  return path.join(inputsDir(workDir), 'static-5mib.pdf');
}

/** Where the benchmark's input files are made: under the bench's work dir in the OS temp dir. */
function inputsDir(workDir: string): string {
  return path.join(workDir, 'media-inputs');
}

export interface MediaOptions {
  databaseUrl: string;
  mediaDir: string;
  workDir: string;
  token: string;
  baselineUrl: string;
  connections: number;
  duration: number;
}

type Load = HttpLoad;

export interface MediaFigures {
  upload: {
    bytes: number;
    runs: { cpMs: number; bareMs: number; uploadMs: number; serverCpuMs: number; peakRssMb: number }[];
    cpMBps: number;
    /** The same request to the baseline's bare route that streams the body to a file, parsing and checking nothing. */
    bareMBps: number;
    uploadMBps: number;
    ratio: number;
    rssBeforeMb: number;
    peakRssMb: number;
    hwmMb: number;
  };
  serving: { bytes: number; connections: number; duration: number; folio: Load; baseline: Load; ratio: number };
  transform: { width: number; height: number; sourceBytes: number; coldMs: number; variantBytes: number; connections: number; cached: Load };
}

export async function measureMedia(options: MediaOptions): Promise<MediaFigures> {
  const inputs = inputsDir(options.workDir);
  fs.mkdirSync(inputs, { recursive: true });
  const port = await freePort();
  const server = startFolio({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: options.databaseUrl,
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    MEDIA_DIR: options.mediaDir,
  });
  try {
    const folio = `http://127.0.0.1:${port}`;
    await waitForHttp(`${folio}/_cms/api/health`);
    // bin/folio.mjs loads tsx in its own process: the child is the process that serves.
    const upload = await measureUpload(`${folio}${uploadPath}`, `${options.baselineUrl}/upload`, options.token, server.pid!, inputs);
    const serving = await measureServing(folio, options);
    const transform = await measureTransform(folio, options, inputs);
    return { upload, serving, transform };
  } finally {
    server.kill('SIGTERM');
    fs.rmSync(inputs, { recursive: true, force: true });
  }
}

async function measureUpload(url: string, bareUrl: string, token: string, pid: number, inputs: string): Promise<MediaFigures['upload']> {
  const source = path.join(inputs, 'upload-50mib.pdf');
  const copy = path.join(inputs, 'copy.pdf');
  writePdf(source, uploadBytes);
  // One small upload first, as autocannon's warm-up: the code an upload loads is loaded before the timed runs.
  const warmUp = path.join(inputs, 'warm-up.pdf');
  writePdf(warmUp, MiB);
  await uploaded(url, token, warmUp, { filename: 'warm-up.pdf', type: 'application/pdf' });
  const rssBeforeMb = residentMb(pid, 'VmRSS');
  const runs: MediaFigures['upload']['runs'] = [];
  for (let run = 0; run < uploadRuns; run += 1) {
    makeDistinct(source);
    const cpMs = await timeCp(source, copy);
    fs.rmSync(copy);
    const bare = await uploadFile(bareUrl, token, source, { filename: 'upload.pdf', type: 'application/pdf' });
    const cpuBefore = cpuMs(pid);
    const { result, peakMb } = await withPeakRss(pid, () => uploadFile(url, token, source, { filename: 'upload.pdf', type: 'application/pdf' }));
    if (result.status !== 201) throw new Error(`upload answered ${result.status}: ${result.body.slice(0, 300)}`);
    runs.push({ cpMs, bareMs: bare.ms, uploadMs: result.ms, serverCpuMs: cpuMs(pid) - cpuBefore, peakRssMb: peakMb });
  }
  const cpMBps = uploadBytes / 1e6 / (median(runs.map((run) => run.cpMs)) / 1000);
  const uploadMBps = uploadBytes / 1e6 / (median(runs.map((run) => run.uploadMs)) / 1000);
  const bareMBps = uploadBytes / 1e6 / (median(runs.map((run) => run.bareMs)) / 1000);
  const peakRssMb = Math.max(...runs.map((run) => run.peakRssMb));
  return { bytes: uploadBytes, runs, cpMBps, bareMBps, uploadMBps, ratio: uploadMBps / cpMBps, rssBeforeMb, peakRssMb, hwmMb: residentMb(pid, 'VmHWM') };
}

/** `cp` as a process, as the issue names it: spawned, timed until it exits. */
async function timeCp(from: string, to: string): Promise<number> {
  const started = performance.now();
  const child = spawn('cp', [from, to], { stdio: 'ignore' });
  const code = await new Promise<number | null>((resolve, reject) => child.on('error', reject).on('exit', resolve));
  if (code !== 0) throw new Error(`cp exited with ${code}`);
  return performance.now() - started;
}

/** CPU time `pid` has used (user and system, all threads), from /proc; Linux counts it in 10 ms ticks. */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The largest VmRSS of `pid` read every 20 ms while `work` runs. */
async function withPeakRss<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peakMb = residentMb(pid, 'VmRSS');
  const timer = setInterval(() => (peakMb = Math.max(peakMb, residentMb(pid, 'VmRSS'))), 20);
  try {
    const result = await work();
    return { result, peakMb: Math.max(peakMb, residentMb(pid, 'VmRSS')) };
  } finally {
    clearInterval(timer);
  }
}

async function measureServing(folio: string, options: MediaOptions): Promise<MediaFigures['serving']> {
  const file = mediaStaticFile(options.workDir);
  writePdf(file, servedBytes);
  const fileUrl = await uploaded(`${folio}${uploadPath}`, options.token, file, { filename: 'served.pdf', type: 'application/pdf' });
  const baselineUrl = `${options.baselineUrl}/static`;
  const expected = fs.readFileSync(file);
  for (const url of [fileUrl, baselineUrl]) await expectBytes(url, expected);
  // 5 MiB answers: a few connections fill loopback; more only queue. Read by Node's parser (http-load.ts),
  // after a warm-up, Folio and the baseline in turn so that neither gets the quieter moments.
  const connections = Math.min(options.connections, 10);
  await alternatingLoads([fileUrl, baselineUrl], connections, Math.min(2, options.duration), 1);
  const [folioLoad, baselineLoad] = (await alternatingLoads([fileUrl, baselineUrl], connections, options.duration)) as [Load, Load];
  return { bytes: servedBytes, connections, duration: options.duration, folio: folioLoad, baseline: baselineLoad, ratio: folioLoad.requestsPerSecond / baselineLoad.requestsPerSecond };
}

async function measureTransform(folio: string, options: MediaOptions, inputs: string): Promise<MediaFigures['transform']> {
  const [width, height] = [2400, 1600];
  const file = path.join(inputs, 'photo.jpg');
  await writeJpeg(file, width, height);
  const url = `${await uploaded(`${folio}${uploadPath}`, options.token, file, { filename: 'photo.jpg', type: 'image/jpeg' })}${transformQuery}`;
  const started = performance.now();
  const response = await fetch(url);
  const variant = await response.arrayBuffer();
  const coldMs = performance.now() - started;
  if (response.status !== 200 || response.headers.get('content-type') !== 'image/webp') throw new Error(`${url} answered ${response.status} ${response.headers.get('content-type')}`);
  const cached = await load(url, options.connections, options.duration);
  return { width, height, sourceBytes: fs.statSync(file).size, coldMs, variantBytes: variant.byteLength, connections: options.connections, cached };
}

/** Uploads `file` to `uploadUrl` and answers the file's URL on the same server. */
async function uploaded(uploadUrl: string, token: string, file: string, part: { filename: string; type: string }): Promise<string> {
  const result = await uploadFile(uploadUrl, token, file, part);
  if (result.status !== 201) throw new Error(`upload of ${part.filename} answered ${result.status}: ${result.body.slice(0, 300)}`);
  const { data } = JSON.parse(result.body) as { data: { item: { url: string } } };
  return new URL(new URL(data.item.url).pathname, uploadUrl).href;
}

async function expectBytes(url: string, expected: Buffer): Promise<void> {
  const response = await fetch(url);
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200 || !body.equals(expected)) throw new Error(`${url} did not answer the file (${response.status}, ${body.length} bytes)`);
}

async function load(url: string, connections: number, duration: number): Promise<Load> {
  // A short warm-up, as in run.ts, before the measured run.
  await autocannon({ url, connections, duration: Math.min(2, duration) });
  const result = await autocannon({ url, connections, duration });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, megabytesPerSecond: result.throughput.average / 1e6 };
}

/** The figures in run.ts's style: value, what it is compared with, ratio, and the issue's target met or not. */
export function printMedia(figures: MediaFigures): void {
  const { upload, serving, transform } = figures;
  const mib = (bytes: number) => `${Math.round(bytes / MiB)} MiB`;
  const verdict = (met: boolean) => (met ? 'met' : 'NOT MET');
  const rows: [string, string, string, string, string][] = [
    [`upload ${mib(upload.bytes)} PDF, streamed multipart`, `${upload.uploadMBps.toFixed(0)} MB/s`, `cp ${upload.cpMBps.toFixed(0)} MB/s`, percent(upload.ratio), `>= 50% ${verdict(upload.ratio >= 0.5)}`],
    ['  the same upload to a bare route (body to disk)', `${upload.bareMBps.toFixed(0)} MB/s`, `Folio ${upload.uploadMBps.toFixed(0)} MB/s`, percent(upload.uploadMBps / upload.bareMBps), ''],
    ['server peak RSS during the upload', `${upload.peakRssMb.toFixed(0)} MB`, `${upload.rssBeforeMb.toFixed(0)} MB before`, '', `< 150 MB ${verdict(upload.peakRssMb < 150)}`],
    [`GET ${mib(serving.bytes)} file (${serving.connections} connections)`, `${serving.folio.requestsPerSecond.toFixed(0)} req/s`, `${serving.baseline.requestsPerSecond.toFixed(0)} req/s`, percent(serving.ratio), `>= 70% ${verdict(serving.ratio >= 0.7)}`],
    [`first GET ${transformQuery} (cold)`, `${transform.coldMs.toFixed(0)} ms`, '', '', ''],
    [`GET ${transformQuery}, cached (${transform.connections} conn.)`, `${transform.cached.requestsPerSecond.toFixed(0)} req/s`, '', '', ''],
  ];
  console.log(`\nMedia: a fresh Folio server, local storage on the temp dir's disk; upload: median of ${upload.runs.length} runs; loads: ${serving.duration}s each\n`);
  console.log(['figure'.padEnd(50), 'value'.padStart(12), 'compared with'.padStart(18), 'ratio'.padStart(7), '  target'].join(' '));
  for (const [figure, value, baseline, ratio, target] of rows) {
    console.log([figure.padEnd(50), value.padStart(12), baseline.padStart(18), ratio.padStart(7), target ? `  ${target}` : ''].join(' '));
  }
  const runs = upload.runs.map((run) => `cp ${run.cpMs.toFixed(0)} ms / bare ${run.bareMs.toFixed(0)} ms / upload ${run.uploadMs.toFixed(0)} ms, server CPU ${run.serverCpuMs} ms, peak ${run.peakRssMb.toFixed(0)} MB`).join('; ');
  console.log(`\nupload runs: ${runs}; server VmHWM ${upload.hwmMb.toFixed(0)} MB`);
  console.log(
    `GET ${mib(serving.bytes)} (Node's HTTP client, Folio and static in 3 alternating rounds): Folio ${serving.folio.megabytesPerSecond.toFixed(0)} MB/s p50 ${serving.folio.p50} ms p99 ${serving.folio.p99} ms; ` +
      `static ${serving.baseline.megabytesPerSecond.toFixed(0)} MB/s p50 ${serving.baseline.p50} ms p99 ${serving.baseline.p99} ms`,
  );
  console.log(
    `transform: ${transform.width}x${transform.height} JPEG of ${(transform.sourceBytes / MiB).toFixed(1)} MiB to ${(transform.variantBytes / 1024).toFixed(0)} KiB of WebP; ` +
      `cached p50 ${transform.cached.p50} ms p99 ${transform.cached.p99} ms`,
  );
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(0)}%`;
}
