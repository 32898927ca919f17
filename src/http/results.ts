import { Readable } from 'node:stream';
import fresh from 'fresh';
import type { Context as HonoContext } from 'hono';
import parseRange from 'range-parser';
import { AppError, databaseUnavailable } from '../core/errors.ts';
import { contentDisposition, type ByteSource } from '../core/results.ts';
import { answerAbortedRequest } from './aborted.ts';
import { errorBody, failure, success } from './envelope.ts';
import { requestHeader } from './request-headers.ts';
import type { FailureResponse, PageResult, ResultSpec } from './route.ts';
import type { AppEnv } from './types.ts';

/** Pages allow only their own origin's scripts and styles, and are never framed. */
export const pageContentSecurityPolicy = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'";

/** A route's output sent as its declared result kind (every kind but the envelope). */
export async function respondWith(c: HonoContext<AppEnv>, result: ResultSpec<unknown>, output: unknown): Promise<Response> {
  switch (result.kind) {
    case 'json':
      return reply(c, result.status ?? 200, c.get('json').write(output), { 'content-type': 'application/json', ...(result.cacheControl ? { 'cache-control': result.cacheControl } : {}) });
    case 'bytes':
      return sendBytes(c, result.source(output), result.cacheControl, result.headers);
    case 'download': {
      const { filename, body } = result.download(output);
      const stream = Readable.toWeb(body) as ReadableStream<Uint8Array>;
      return reply(c, 200, stream, { 'content-type': result.contentType, 'content-disposition': contentDisposition('attachment', filename), 'cache-control': 'no-store' });
    }
    case 'ndjson': {
      const whole = await result.whole?.value(output);
      if (whole !== undefined) return success(c, whole);
      return streamLines(c, result.lines(output));
    }
    case 'html':
      return reply(c, 200, await result.render(output), {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': (typeof result.contentSecurityPolicy === 'function' ? result.contentSecurityPolicy(output) : result.contentSecurityPolicy) ?? pageContentSecurityPolicy,
        ...(result.cacheControl ? { 'cache-control': result.cacheControl } : {}),
      });
    case 'redirect':
      return reply(c, result.status ?? 302, null, { location: result.location(output) });
    case 'page':
      return replyPage(c, await result.respond(output), result.contentSecurityPolicy);
  }
}

/** A browser step's answer; never cached (its pages carry one-time ids and a person's own data). */
function replyPage(c: HonoContext<AppEnv>, page: PageResult, contentSecurityPolicy = pageContentSecurityPolicy): Response {
  if ('redirect' in page) return reply(c, page.status ?? 302, null, { location: page.redirect, 'cache-control': 'no-store' });
  return reply(c, page.status ?? 200, page.html, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': page.contentSecurityPolicy ?? contentSecurityPolicy, 'cache-control': 'no-store' });
}

/** A failure as a route's own `failure` renders it (http/route.ts). */
export function respondWithFailure(c: HonoContext<AppEnv>, failure: FailureResponse): Response {
  if (failure.kind === 'page') return replyPage(c, failure.result);
  return reply(c, failure.status, c.get('json').write(failure.body), { ...failure.headers, 'content-type': 'application/json' });
}

/** A response with the request's fixed headers (request id, security, caching) and `headers` over them. */
function reply(c: HonoContext<AppEnv>, status: number, body: ReadableStream<Uint8Array> | string | null, headers: Record<string, string>): Response {
  c.set('responseHeadersApplied', true);
  return new Response(body, { status, headers: { ...c.get('responseHeaders'), ...headers } });
}

/**
 * A file with HTTP's conditional and range semantics: 304 when the client's `If-None-Match` holds, 206
 * for one satisfiable `Range` (several ranges get the whole file, which RFC 9110 allows), 416 for none.
 */
async function sendBytes(c: HonoContext<AppEnv>, source: ByteSource, cacheControl: string, extraHeaders: Record<string, string> = {}): Promise<Response> {
  // The presigned URL expires, so the redirect itself must never be cached.
  if (source.redirect !== undefined) return reply(c, 302, null, { location: source.redirect, 'cache-control': 'no-store' });
  const headers: Record<string, string> = { ...extraHeaders, 'cache-control': cacheControl, 'accept-ranges': 'bytes', 'content-type': source.contentType };
  if (source.etag !== undefined) headers.etag = `"${source.etag}"`;
  if (source.encoding !== undefined) headers['content-encoding'] = source.encoding;
  if (source.disposition !== undefined) headers['content-disposition'] = contentDisposition(source.disposition, source.filename);
  const ifNoneMatch = requestHeader(c, 'if-none-match');
  if (ifNoneMatch !== undefined && headers.etag !== undefined && fresh({ 'if-none-match': ifNoneMatch }, { etag: headers.etag })) {
    return reply(c, 304, null, headers);
  }
  const range = requestedRange(c, source, headers.etag);
  if (range === 'unsatisfiable') return reply(c, 416, null, { ...headers, 'content-range': `bytes */${source.size}` });
  // A HEAD response has no body: a stream opened for it would never be read or closed (a file handle,
  // an S3 connection), so nothing is opened.
  if (c.req.method === 'HEAD') return reply(c, range ? 206 : 200, null, { ...headers, 'content-length': String(range ? range.end - range.start + 1 : source.size) });
  const stream = await source.open(range);
  const body = Readable.toWeb(stream) as ReadableStream<Uint8Array>;
  if (!range) return reply(c, 200, body, { ...headers, 'content-length': String(source.size) });
  return reply(c, 206, body, { ...headers, 'content-length': String(range.end - range.start + 1), 'content-range': `bytes ${range.start}-${range.end}/${source.size}` });
}

function requestedRange(c: HonoContext, source: ByteSource, etag: string | undefined): { start: number; end: number } | 'unsatisfiable' | undefined {
  const header = requestHeader(c, 'range');
  if (header === undefined) return undefined;
  // A range of an older version of the file would be spliced into the wrong bytes: send it all instead.
  const ifRange = requestHeader(c, 'if-range');
  if (ifRange !== undefined && ifRange !== etag) return undefined;
  const ranges = parseRange(source.size, header, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  // -2 is a malformed header, which RFC 9110 says to ignore; several ranges are served whole.
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return undefined;
  return { start: ranges[0]!.start, end: ranges[0]!.end };
}

/**
 * NDJSON: one JSON value per line, sent as the operation yields them. A failure before the first line
 * is an ordinary error response; after it the status is gone, so the stream ends with the error
 * envelope as its last line.
 */
async function streamLines(c: HonoContext<AppEnv>, lines: AsyncIterable<unknown>): Promise<Response> {
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  const encoder = new TextEncoder();
  const json = c.get('json');
  const line = (value: unknown) => encoder.encode(`${json.write(value)}\n`);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done) controller.close();
      else controller.enqueue(line(first.value));
    },
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(line(next.value));
      } catch (error) {
        controller.enqueue(line(errorBody(asAppError(c, error))));
        controller.close();
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return reply(c, 200, body, { 'content-type': 'application/x-ndjson; charset=utf-8' });
}

/**
 * A failure as the adapters answer it (app.onError, routes, NDJSON streams). A database that does not
 * answer is 503 with Retry-After, the outage logged once for all the requests it fails; anything else
 * unexpected is a bug: logged in full and sent as INTERNAL_ERROR with the request id.
 */
export function asAppError(c: HonoContext<AppEnv>, error: unknown): AppError {
  if (error instanceof AppError) return error;
  const unavailable = databaseUnavailable(error, c.get('log'));
  if (unavailable) return unavailable;
  c.get('log').error({ err: error }, 'unhandled error');
  return new AppError('INTERNAL_ERROR', 'Internal server error', { requestId: c.get('requestId') });
}

/** What a thrown error is answered with, wherever it is caught (the request's wrapper, app.onError): a client's hang-up, or the envelope. */
export function answerThrown(c: HonoContext<AppEnv>, error: unknown): Response {
  return answerAbortedRequest(c, error) ?? failure(c, asAppError(c, error));
}
