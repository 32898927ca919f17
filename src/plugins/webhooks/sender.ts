import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import packageJson from '../../../package.json' with { type: 'json' };
import { guardedLookup, isNonPublicAddress, RefusedAddressError } from './addresses.ts';

export interface SendResult {
  /** The receiver's status; undefined when no answer came (refused, timed out, connection failed). */
  status?: number;
  /** Why the attempt failed; undefined on a 2xx answer. */
  error?: string;
}

/**
 * Sends one signed POST. Redirects are never followed (a 3xx is a failed attempt), so no answer can
 * send the request on to an address the guard would refuse; the whole attempt, answer included,
 * must end within `timeoutMs`. Never throws.
 */
export async function sendWebhook(url: string, headers: Record<string, string>, body: string, options: { timeoutMs: number; allowPrivate: boolean }): Promise<SendResult> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  // A literal address is connected to without a lookup: it is judged here.
  if (!options.allowPrivate && isIP(host) && isNonPublicAddress(host)) return { error: new RefusedAddressError(host, host).message };
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    const request = transport.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body).toString(), 'user-agent': `Folio-Webhooks/${packageJson.version}` },
        signal: AbortSignal.timeout(options.timeoutMs),
        ...(options.allowPrivate ? {} : { lookup: guardedLookup }),
        // A fresh connection per attempt: a pooled one could outlive the guard's decision.
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        // The body is not needed, but must be read for the answer to be complete (and the timeout to cover it).
        response.on('data', () => undefined);
        response.on('end', () => resolve(status >= 200 && status < 300 ? { status } : { status, error: status >= 300 && status < 400 ? `Redirect to ${response.headers.location ?? '(none)'} not followed` : `HTTP ${status}` }));
        response.on('error', (error) => resolve({ status, error: describe(error, options.timeoutMs) }));
      },
    );
    request.on('error', (error) => resolve({ error: describe(error, options.timeoutMs) }));
    request.end(body);
  });
}

function describe(error: Error, timeoutMs: number): string {
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return `Timed out after ${timeoutMs} ms`;
  return error.message;
}
