import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { residentMb } from './body-burst.ts';
import { uploadFile } from './media-files.ts';
import { freePort, startFolio, waitForHttp } from './process.ts';

/**
 * Issue 36, defect 4 (decisions/0033): on a fresh Folio server, the issue's 8000 × 8000 PNG asked for
 * `?w=4096&h=4096&format=avif` (answered or refused, and how fast), then a burst of 20 distinct variant
 * requests of another such image at once: the server's peak RSS, the answers, and the p99 of
 * `GET /settings` during the burst against the same load without it.
 */

export interface TransformLimitsOptions {
  databaseUrl: string;
  mediaDir: string;
  workDir: string;
  token: string;
}

export interface TransformLimitsFigures {
  sourceBytes: number;
  issueCase: { status: number; ms: number; message: string };
  largeWebp: { status: number; ms: number; width: number | undefined; height: number | undefined };
  burst: { requests: number; statuses: Record<string, number>; ms: number; rssBeforeMb: number; peakRssMb: number; rssByStageMb: Record<string, number> };
  otherRequests: { connections: number; quiet: { p50: number; p99: number; requestsPerSecond: number }; duringBurst: { p50: number; p99: number; requestsPerSecond: number } };
}

const settingsPath = '/_cms/api/settings';
const otherConnections = 10;

/** What a responsive page asks for: widths in WebP and JPEG, smaller ones in AVIF. */
const burstQueries = [
  ...[320, 480, 640, 800, 1024, 1280, 1600, 2048].map((width) => `w=${width}&format=webp`),
  ...[320, 640, 1024, 1600, 2048, 2400].map((width) => `w=${width}&format=jpeg`),
  ...[320, 480, 640, 800, 1024, 1280].map((width) => `w=${width}&format=avif`),
];

export async function measureTransformLimits(options: TransformLimitsOptions): Promise<TransformLimitsFigures> {
  const inputs = path.join(options.workDir, 'transform-inputs');
  fs.mkdirSync(inputs, { recursive: true });
  const port = await freePort();
  const server = startFolio({ PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: options.databaseUrl, LOG_LEVEL: 'warn', LOG_FORMAT: 'json', MEDIA_DIR: options.mediaDir });
  try {
    const folio = `http://127.0.0.1:${port}`;
    await waitForHttp(`${folio}/_cms/api/health`);
    const pid = server.pid!;
    const stages: Record<string, number> = { idle: residentMb(pid, 'VmRSS') };
    const [issueFile, burstFile] = [path.join(inputs, 'issue.png'), path.join(inputs, 'burst.png')];
    // Flat colour compresses 64 megapixels into a few dozen kilobytes, as the issue's file did.
    // A colour of their own per run: the same bytes again would be the stored item, its variants made.
    const colour = () => ({ r: randomInt(256), g: randomInt(256), b: randomInt(256) });
    await sharp({ create: { width: 8000, height: 8000, channels: 3, background: colour() } }).png({ compressionLevel: 9, palette: true }).toFile(issueFile);
    await sharp({ create: { width: 8000, height: 8000, channels: 3, background: colour() } }).png({ compressionLevel: 9, palette: true }).toFile(burstFile);
    const issueUrl = await uploaded(folio, options.token, issueFile);
    const burstUrl = await uploaded(folio, options.token, burstFile);
    stages.uploaded = residentMb(pid, 'VmRSS');
    const authorization = { authorization: `Bearer ${options.token}` };

    const issueCase = await timed(`${issueUrl}?w=4096&h=4096&format=avif`);
    const large = await timed(`${issueUrl}?w=4096&h=4096&format=webp`);
    const meta = large.status === 200 ? await sharp(large.bytes).metadata() : undefined;
    stages.largeWebp = residentMb(pid, 'VmRSS');

    // Warm the settings route, then its load alone, then the same load with the burst inside it.
    await autocannon({ url: `${folio}${settingsPath}`, headers: authorization, connections: otherConnections, duration: 2 });
    const quiet = await settingsLoad(folio, authorization, new Promise((resolve) => setTimeout(resolve, 5000)));
    stages.settingsLoad = residentMb(pid, 'VmRSS');
    const rssBeforeMb = residentMb(pid, 'VmRSS');
    let peakRssMb = rssBeforeMb;
    const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, residentMb(pid, 'VmRSS'))), 20);
    const burstStarted = performance.now();
    let burstMs = 0;
    const burst = Promise.all(burstQueries.map(async (query) => String((await timed(`${burstUrl}?${query}`)).status))).finally(() => (burstMs = performance.now() - burstStarted));
    // The load runs as long as the burst, so no quiet second dilutes its p99.
    const duringBurst = await settingsLoad(folio, authorization, burst);
    const answers = await burst;
    clearInterval(sampler);
    peakRssMb = Math.max(peakRssMb, residentMb(pid, 'VmRSS'));
    const statuses: Record<string, number> = {};
    for (const status of answers) statuses[status] = (statuses[status] ?? 0) + 1;
    return {
      sourceBytes: fs.statSync(issueFile).size,
      issueCase: { status: issueCase.status, ms: issueCase.ms, message: issueCase.message },
      largeWebp: { status: large.status, ms: large.ms, width: meta?.width, height: meta?.height },
      burst: { requests: burstQueries.length, statuses, ms: burstMs, rssBeforeMb, peakRssMb, rssByStageMb: stages },
      otherRequests: { connections: otherConnections, quiet, duringBurst },
    };
  } finally {
    server.kill('SIGTERM');
    fs.rmSync(inputs, { recursive: true, force: true });
  }
}

/** `GET /settings` on a few connections until `until` settles: its latency and rate. */
function settingsLoad(folio: string, headers: Record<string, string>, until: Promise<unknown>): Promise<{ p50: number; p99: number; requestsPerSecond: number }> {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url: `${folio}${settingsPath}`, headers, connections: otherConnections, duration: 300 }, (error: unknown, result: autocannon.Result) => {
      if (error) return reject(error instanceof Error ? error : new Error(String(error)));
      if (result.non2xx > 0 || result.errors > 0) return reject(new Error(`${settingsPath}: ${result.non2xx} non-2xx responses, ${result.errors} errors`));
      resolve({ p50: result.latency.p50, p99: result.latency.p99, requestsPerSecond: result.requests.average });
    });
    void until.finally(() => instance.stop());
  });
}

async function timed(url: string): Promise<{ status: number; ms: number; message: string; bytes: Buffer }> {
  const started = performance.now();
  const response = await fetch(url);
  const bytes = Buffer.from(await response.arrayBuffer());
  const ms = performance.now() - started;
  const message = response.headers.get('content-type')?.startsWith('application/json') ? ((JSON.parse(bytes.toString('utf8')) as { error?: { message?: string } }).error?.message ?? '') : '';
  return { status: response.status, ms, message, bytes };
}

async function uploaded(folio: string, token: string, file: string): Promise<string> {
  const result = await uploadFile(`${folio}/_cms/api/media/upload`, token, file, { filename: path.basename(file), type: 'image/png' });
  if (result.status !== 201) throw new Error(`upload of ${file} answered ${result.status}: ${result.body.slice(0, 300)}`);
  const { data } = JSON.parse(result.body) as { data: { item: { url: string } } };
  return `${folio}${new URL(data.item.url).pathname}`;
}

export function printTransformLimits(figures: TransformLimitsFigures): void {
  const verdict = (met: boolean) => (met ? 'met' : 'NOT MET');
  const { issueCase, largeWebp, burst, otherRequests } = figures;
  const answered = issueCase.status === 200 || (issueCase.status === 400 && issueCase.message !== '');
  console.log(`\nTransform limits: a fresh Folio server as npm start runs it; two 8000 x 8000 PNGs of ${(figures.sourceBytes / 1024).toFixed(0)} KiB\n`);
  console.log(`?w=4096&h=4096&format=avif: ${issueCase.status} in ${issueCase.ms.toFixed(0)} ms (within 2 s, answered or refused with a reason: ${verdict(answered && issueCase.ms < 2000)}): ${issueCase.message}`);
  console.log(`?w=4096&h=4096&format=webp (cold: master, then variant): ${largeWebp.status} in ${largeWebp.ms.toFixed(0)} ms, ${largeWebp.width} x ${largeWebp.height}`);
  console.log(
    `burst of ${burst.requests} distinct variants at once (cold master included): answers ${JSON.stringify(burst.statuses)} in ${burst.ms.toFixed(0)} ms; ` +
      `server RSS ${burst.rssBeforeMb.toFixed(0)} MB before, peak ${burst.peakRssMb.toFixed(0)} MB (< 300 MB ${verdict(burst.peakRssMb < 300)})`,
  );
  console.log(`server RSS by stage: ${Object.entries(burst.rssByStageMb).map(([stage, mb]) => `${stage} ${mb.toFixed(0)} MB`).join(', ')}`);
  console.log(
    `GET /settings, ${otherRequests.connections} connections: alone p50 ${otherRequests.quiet.p50} ms p99 ${otherRequests.quiet.p99} ms ${otherRequests.quiet.requestsPerSecond.toFixed(0)} req/s; ` +
      `during the burst p50 ${otherRequests.duringBurst.p50} ms p99 ${otherRequests.duringBurst.p99} ms ${otherRequests.duringBurst.requestsPerSecond.toFixed(0)} req/s`,
  );
}
