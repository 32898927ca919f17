import http from 'node:http';
import { median } from './process.ts';

/**
 * CPU time and database statements per request, read by bench/probe.mjs inside the server (docs/
 * decisions/0051): requests sent one after another on one keep-alive connection, so nothing queues
 * and the process does nothing else; after a warm-up, BENCH_CPU_BATCHES batches (default 7) of
 * BENCH_CPU_REQUESTS requests (default 300), each bracketed by the probe's start and stop; the median
 * batch is reported. On a shared machine req/s moves with the neighbours, the CPU a request costs
 * much less.
 */
const batches = Number(process.env.BENCH_CPU_BATCHES ?? 7);
const requestsPerBatch = Number(process.env.BENCH_CPU_REQUESTS ?? 300);

export interface CpuFigures {
  cpuMicrosPerRequest: number;
  statementsPerRequest: number;
}

export interface ProbedRequest {
  /** A function makes a new one per request (a query that must not be answered from memory). */
  url: string | ((n: number) => string);
  method?: string;
  headers?: Record<string, string>;
  /** A JSON body; a function makes a new one per request. */
  body?: unknown;
}

/** A server's probe (bench/probe.mjs) and the request to repeat there. */
export interface CpuTarget {
  probe: string;
  request: ProbedRequest;
}

/**
 * The figures of each target, their batches interleaved (a batch of the first, of the second… then
 * again): the load of the machine changes over minutes, and what one target's figure is compared
 * with (Folio against the bare route, A against B) is then measured under the same load.
 */
export async function measureCpu(targets: readonly CpuTarget[]): Promise<CpuFigures[]> {
  const senders = targets.map((target) => sender(target.request));
  try {
    for (const send of senders) for (let index = 0; index < requestsPerBatch; index += 1) await send();
    const samples = targets.map(() => [] as CpuFigures[]);
    for (let batch = 0; batch < batches; batch += 1) {
      for (const [which, target] of targets.entries()) {
        await exchange(`${target.probe}/start`, {});
        for (let index = 0; index < requestsPerBatch; index += 1) await senders[which]!();
        const used = JSON.parse(await exchange(`${target.probe}/stop`, {})) as { cpuMicros: number; statements: number };
        samples[which]!.push({ cpuMicrosPerRequest: used.cpuMicros / requestsPerBatch, statementsPerRequest: used.statements / requestsPerBatch });
      }
    }
    return samples.map((figures) => ({ cpuMicrosPerRequest: median(figures.map((sample) => sample.cpuMicrosPerRequest)), statementsPerRequest: median(figures.map((sample) => sample.statementsPerRequest)) }));
  } finally {
    for (const send of senders) send.agent.destroy();
  }
}

/** Sends `request` again and again on one keep-alive connection of its own. */
function sender(request: ProbedRequest): (() => Promise<string>) & { agent: http.Agent } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let n = 0;
  const send = () => {
    n += 1;
    const body = typeof request.body === 'function' ? (request.body as (n: number) => unknown)(n) : request.body;
    const headers = { ...request.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
    const url = typeof request.url === 'function' ? request.url(n) : request.url;
    return exchange(url, { agent, method: request.method ?? 'GET', headers }, body === undefined ? undefined : JSON.stringify(body));
  };
  return Object.assign(send, { agent });
}

/** One request; its body as text, a status other than 2xx an error. */
function exchange(url: string, options: http.RequestOptions, body?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, options, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (response.statusCode! >= 300) reject(new Error(`${options.method ?? 'GET'} ${url} answered ${response.statusCode}: ${text.slice(0, 200)}`));
        else resolve(text);
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}
