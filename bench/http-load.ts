import http from 'node:http';

/**
 * Load with large answers. autocannon turns every answer into a string and appends it to the last
 * (`req.body += data`), which for 5 MiB bodies caps it near 30 MB/s whatever the server: here each
 * connection is a keep-alive socket whose answers Node's own parser reads and discards.
 */
export interface HttpLoad {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  megabytesPerSecond: number;
}

interface Sample {
  seconds: number;
  bytes: number;
  latencies: number[];
}

/**
 * `urls` loaded in turn, `rounds` times, for `seconds` in all each: on a machine whose load drifts,
 * alternating spreads the drift over all of them instead of favouring whichever ran in the quiet.
 */
export async function alternatingLoads(urls: string[], connections: number, seconds: number, rounds = 3): Promise<HttpLoad[]> {
  const samples: Sample[] = urls.map(() => ({ seconds: 0, bytes: 0, latencies: [] }));
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, url] of urls.entries()) {
      const sample = await load(url, connections, seconds / rounds);
      const total = samples[index]!;
      total.seconds += sample.seconds;
      total.bytes += sample.bytes;
      total.latencies.push(...sample.latencies);
    }
  }
  return samples.map(summary);
}

/**
 * Requests offered at a steady `rate` (open loop), each due at its own moment and timed from then,
 * so a request that waits for a free connection or a busy server counts its wait. autocannon's
 * `overallRate` sends each connection's share in bursts: a bare route at 2,000 req/s showed a p99
 * of 19 ms under it, which says more about the bursts than about the server. A server that cannot
 * keep up is given as long again as the schedule to catch up; what it has not answered by then is
 * counted as `unfinished` (and left out of the latencies), so the run ends. With `until`, requests
 * stop being offered once it settles (`seconds` is then only the longest run): a load for as long as
 * some other work takes.
 */
export async function pacedLoad(
  urls: readonly string[],
  options: { rate: number; seconds: number; connections: number; headers?: Record<string, string>; until?: Promise<unknown> },
): Promise<HttpLoad & { unfinished: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies: number[] = [];
  let bytes = 0;
  let abandoned = false;
  let inFlight = 0;
  // Requests due while every connection is busy wait here, not in the agent: dropped when the run ends.
  const waiting: number[] = [];
  let total = Math.round(options.rate * options.seconds);
  let stopped = false;
  options.until?.then(
    () => (stopped = true),
    () => (stopped = true),
  );
  const started = performance.now();
  const dueAt = (index: number) => started + (index * 1000) / options.rate;
  let failure: unknown;
  let allDone: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (allDone = resolve));
  const send = (index: number) => {
    inFlight += 1;
    timedGet(urls[index % urls.length]!, agent, options.headers, dueAt(index), latencies, (count) => (bytes += count))
      .catch((error: unknown) => {
        if (!abandoned) failure ??= error;
      })
      .finally(() => {
        inFlight -= 1;
        const next = waiting.shift();
        if (next !== undefined && !abandoned) send(next);
        else if (inFlight === 0 && latencies.length + waiting.length >= total) allDone();
      });
  };
  try {
    for (let index = 0; index < total; ) {
      if (stopped) total = index;
      // Everything due by now goes out; then wait for the next one's moment (timers fire late, never early).
      for (const now = performance.now(); index < total && dueAt(index) <= now; index++) {
        if (inFlight < options.connections) send(index);
        else waiting.push(index);
      }
      if (index < total) await new Promise((resolve) => setTimeout(resolve, Math.max(0, dueAt(index) - performance.now())));
    }
    // Stopped early, every answer may be in already: none would call allDone.
    if (inFlight === 0) allDone();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([finished, new Promise((resolve) => (timer = setTimeout(resolve, options.seconds * 1000)))]).finally(() => clearTimeout(timer));
  } finally {
    abandoned = true;
    waiting.length = 0;
    agent.destroy();
  }
  if (failure) throw failure;
  return { ...summary({ seconds: (performance.now() - started) / 1000, bytes, latencies }), unfinished: total - latencies.length };
}

/** One GET, its latency counted from `dueAt`. */
function timedGet(url: string, agent: http.Agent, headers: Record<string, string> | undefined, dueAt: number, latencies: number[], onBytes: (count: number) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    http
      .get(url, { agent, headers }, (response) => {
        if (response.statusCode !== 200) reject(new Error(`${url} answered ${response.statusCode}`));
        response.on('data', (chunk: Buffer) => onBytes(chunk.length));
        response.on('error', reject);
        response.on('end', () => {
          latencies.push(performance.now() - dueAt);
          resolve();
        });
      })
      .on('error', reject);
  });
}

async function load(url: string, connections: number, seconds: number): Promise<Sample> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let bytes = 0;
  const get = () => timedGet(url, agent, undefined, performance.now(), latencies, (count) => (bytes += count));
  const started = performance.now();
  const deadline = started + seconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < deadline) await get();
      }),
    );
  } finally {
    agent.destroy();
  }
  return { seconds: (performance.now() - started) / 1000, bytes, latencies };
}

function summary({ seconds, bytes, latencies }: Sample): HttpLoad {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (share: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? NaN);
  return { requestsPerSecond: sorted.length / seconds, p50: at(0.5), p99: at(0.99), megabytesPerSecond: bytes / 1e6 / seconds };
}
