import fs from 'node:fs';
import { freePort, startFolio, waitForHttp } from './process.ts';

/**
 * Issue 8: 40 parallel 10 MiB JSON bodies once took a server from 191 MB to over a gigabyte. A fresh
 * server takes the same burst; its peak resident memory (VmHWM) is read from /proc.
 */
export interface BodyBurstFigures {
  requests: number;
  bodyBytes: number;
  statuses: Record<string, number>;
  rssBeforeMb: number;
  peakRssMb: number;
}

export function residentMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/**
 * The largest peak resident memory of `pid`'s child processes while this runs, in MB: a server runs
 * an import in a process of its own (docs/decisions/0066), which ends with the job, so its peak is
 * read as it goes (every 100 ms; VmHWM, so a peak between two reads still counts).
 */
export function followChildrenPeak(pid: number): { stop(): number } {
  let peakMb = 0;
  const sample = () => {
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
    for (const child of children) {
      try {
        // An exited child not yet reaped has no VmHWM (NaN, which no comparison passes): its last sample stands.
        const childPeak = residentMb(Number(child), 'VmHWM');
        if (childPeak > peakMb) peakMb = childPeak;
      } catch {
        // Gone between the two reads: its last sample stands.
      }
    }
  };
  const timer = setInterval(sample, 100);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peakMb;
    },
  };
}

export async function measureBodyBurst(databaseUrl: string, mediaDir: string, token: string, requests = 40, bodyBytes = 10 * 1024 * 1024): Promise<BodyBurstFigures> {
  const port = await freePort();
  const server = startFolio({ PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', MEDIA_DIR: mediaDir });
  try {
    await waitForHttp(`http://127.0.0.1:${port}/_cms/api/health`);
    const pid = server.pid!;
    const rssBeforeMb = residentMb(pid, 'VmRSS');
    // A body of the size the issue used, just under BODY_LIMIT: read and parsed whole, then refused (400).
    const body = Buffer.from(JSON.stringify({ data: { title: 'x'.repeat(bodyBytes - 40) } }));
    const answers = await Promise.all(
      Array.from({ length: requests }, () =>
        fetch(`http://127.0.0.1:${port}/_cms/api/content/bench`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body })
          .then(async (response) => {
            await response.arrayBuffer();
            return String(response.status);
          })
          .catch(() => 'connection error'),
      ),
    );
    const statuses: Record<string, number> = {};
    for (const status of answers) statuses[status] = (statuses[status] ?? 0) + 1;
    return { requests, bodyBytes: body.length, statuses, rssBeforeMb, peakRssMb: residentMb(pid, 'VmHWM') };
  } finally {
    server.kill('SIGTERM');
  }
}
