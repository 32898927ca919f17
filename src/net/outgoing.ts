import dns from 'node:dns/promises';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Transform, type Readable } from 'node:stream';
import ipaddr from 'ipaddr.js';
import { useAgent } from 'request-filtering-agent';
import packageJson from '../../package.json' with { type: 'json' };

/**
 * Every request Folio makes to a URL someone else named (webhooks, OAuth client metadata documents,
 * WordPress sites and their media) goes through here: a URL from outside is request forgery waiting
 * to happen. `request-filtering-agent` refuses loopback, private, link-local and other non-public
 * addresses when connecting, after DNS, so a name that resolves to one is refused too; each redirect
 * (followed only when asked, at most a few) connects through a fresh check. The whole exchange, body
 * included, ends within a time limit, and the body is cut off at a size limit.
 */

export interface OutgoingOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The whole exchange, the response body included. */
  timeoutMs: number;
  /** The response body's limit in bytes; undefined: no limit. */
  maxBytes?: number;
  /** Redirects followed (GET only); 0 answers a 3xx as it is. */
  maxRedirects?: number;
  /** Whether non-public addresses may be reached: the deployment's choice (OUTGOING_ALLOW_PRIVATE_ADDRESSES), tests make it. */
  allowPrivate: boolean;
  /** Addresses reachable whatever `allowPrivate` says (tests use one loopback address and refuse the others). */
  allowAddresses?: string[];
  /** Ends the exchange early, like the time limit does (a job told to stop). */
  signal?: AbortSignal;
}

export interface OutgoingResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The URL that answered, after redirects. */
  url: string;
  /** The body, limited to `maxBytes` and to the time left: reading it fails with an OutgoingError past either. */
  body: Readable;
}

export type OutgoingFailure = 'invalid-url' | 'refused-address' | 'too-many-redirects' | 'too-large' | 'timeout' | 'network';

export class OutgoingError extends Error {
  override name = 'OutgoingError';
  readonly reason: OutgoingFailure;

  constructor(reason: OutgoingFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

const userAgent = `Folio/${packageJson.version}`;
const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** A URL Folio may request: http(s), no credentials in it. */
export function outgoingUrl(text: string): URL {
  const url = URL.parse(text);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new OutgoingError('invalid-url', `${text} is not an http(s) URL`);
  if (url.username !== '' || url.password !== '') throw new OutgoingError('invalid-url', `${text} must not carry a user name or password`);
  return url;
}

/**
 * Why a URL may not be used for later requests, or undefined: checked when it is stored (a webhook
 * subscription), with the same rule the connection applies (ipaddr.js, which request-filtering-agent
 * also judges by: only `unicast` is public). A name that does not resolve now passes; connecting checks again.
 */
export async function outgoingUrlProblem(text: string, allowPrivate: boolean): Promise<string | undefined> {
  let url: URL;
  try {
    url = outgoingUrl(text);
  } catch (error) {
    return (error as OutgoingError).message;
  }
  if (allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : await dns.lookup(host, { all: true }).then((found) => found.map((entry) => entry.address), () => []);
  const refused = addresses.find((address) => ipaddr.process(address).range() !== 'unicast');
  return refused === undefined ? undefined : `${host}${refused === host ? '' : ` (${refused})`} is not a public address, and this deployment does not allow others`;
}

/** Sends the request and answers once the response's head has come; the caller reads (or drops) the body. */
export async function outgoingRequest(target: string, options: OutgoingOptions): Promise<OutgoingResponse> {
  const deadline = options.signal ? AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.signal]) : AbortSignal.timeout(options.timeoutMs);
  let url = outgoingUrl(target);
  for (let redirects = 0; ; redirects += 1) {
    const response = await send(url, options, deadline);
    const location = response.headers.location;
    const follows = (options.method ?? 'GET') === 'GET' && (options.maxRedirects ?? 0) > 0;
    if (!follows || !redirectStatuses.has(response.statusCode ?? 0) || location === undefined) {
      return { status: response.statusCode ?? 0, headers: response.headers, url: url.href, body: limited(response, options, deadline) };
    }
    response.resume();
    if (redirects >= options.maxRedirects!) throw new OutgoingError('too-many-redirects', `${target} redirected more than ${options.maxRedirects} times`);
    url = outgoingUrl(new URL(location, url).href);
  }
}

/** The whole body as bytes (within `maxBytes`), for small answers: documents, API pages. */
export async function outgoingBuffer(target: string, options: OutgoingOptions): Promise<Omit<OutgoingResponse, 'body'> & { body: Buffer }> {
  const response = await outgoingRequest(target, options);
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(chunk as Buffer);
  return { ...response, body: Buffer.concat(chunks) };
}

/**
 * One keep-alive agent per scheme and address rule: a delivery or download to a host reached a moment
 * ago reuses its connection instead of opening another. The check is made on each connection, after
 * DNS, and a pooled connection stays with the address it was checked for; connections are pooled only
 * among requests under the same rule, so none made with an address allowed for one request serves
 * another.
 */
const agents = new Map<string, http.Agent>();

function agentFor(url: URL, options: OutgoingOptions): http.Agent {
  const allowAddresses = options.allowAddresses ?? [];
  const key = `${url.protocol}|${options.allowPrivate}|${allowAddresses.join(',')}`;
  let agent = agents.get(key);
  if (!agent) agents.set(key, (agent = useAgent(url.href, { allowPrivateIPAddress: options.allowPrivate, allowIPAddressList: allowAddresses, keepAlive: true })));
  return agent;
}

function send(url: URL, options: OutgoingOptions, deadline: AbortSignal): Promise<IncomingMessage> {
  const agent = agentFor(url, options);
  const transport = url.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = { 'user-agent': userAgent, ...options.headers };
  if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
  return new Promise((resolve, reject) => {
    const request = transport.request(url, { method: options.method ?? 'GET', headers, agent, signal: deadline }, resolve);
    request.on('error', (error) => reject(failure(error, url, options)));
    request.end(options.body);
  });
}

/** The response body, failing past the size limit or the deadline. */
function limited(response: IncomingMessage, options: OutgoingOptions, deadline: AbortSignal): Readable {
  let size = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (options.maxBytes !== undefined && size > options.maxBytes) callback(new OutgoingError('too-large', `The answer is larger than ${options.maxBytes} bytes`));
      else callback(null, chunk);
    },
  });
  const onDeadline = () => limit.destroy(failure(deadline.reason as Error, undefined, options));
  deadline.addEventListener('abort', onDeadline, { once: true });
  limit.on('close', () => {
    deadline.removeEventListener('abort', onDeadline);
    response.destroy();
  });
  response.on('error', (error) => limit.destroy(failure(error, undefined, options)));
  response.pipe(limit);
  return limit;
}

function failure(error: Error, url: URL | undefined, options: OutgoingOptions): OutgoingError {
  if (error instanceof OutgoingError) return error;
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return new OutgoingError('timeout', `No complete answer within ${options.timeoutMs} ms`);
  // request-filtering-agent's refusal names the address it would not connect to.
  if (/is not allowed|private|meta ip/i.test(error.message)) return new OutgoingError('refused-address', `${url?.host ?? 'The host'} is not a public address, and this deployment does not allow others`);
  return new OutgoingError('network', `${url?.host ?? 'The host'} could not be reached: ${error.message}`);
}
