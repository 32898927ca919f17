import type { IncomingMessage } from 'node:http';
import { PassThrough, Readable, Transform, type TransformCallback } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import type { Context as HonoContext } from 'hono';
import { AppError, validationError } from '../core/errors.ts';
import { requestHeader } from './request-headers.ts';
import { streamedThrough } from './streamed-memory.ts';

/**
 * Request bodies, read the way each route declares (http/route.ts). Buffered kinds (JSON, form) hold
 * their bytes in memory while they arrive, so they draw on one memory budget shared by every request
 * of the app; multipart bodies are never buffered whole: the operation reads their parts as streams.
 */

/** Bytes held by bodies being read, across all requests; past the capacity a request waits its turn (503). */
export class BodyMemoryBudget {
  private used = 0;
  readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  take(bytes: number): void {
    if (this.used + bytes > this.capacity) {
      throw new AppError('SERVICE_UNAVAILABLE', 'The server is reading too many large request bodies at once; try again shortly', { retryAfter: 1 });
    }
    this.used += bytes;
  }

  give(bytes: number): void {
    this.used -= bytes;
  }
}

const jsonType = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const formType = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;
const multipartType = /^multipart\/form-data\s*;/i;

export function tooLarge(limit: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than ${limit} bytes`, { limit });
}

/** The declared length, when the header decides it (no chunking); undefined otherwise. */
export function declaredLength(c: HonoContext): number | undefined {
  const length = requestHeader(c, 'content-length');
  if (length === undefined || requestHeader(c, 'transfer-encoding') !== undefined || !/^\d+$/.test(length)) return undefined;
  return Number(length);
}

/**
 * The body as a Node stream: Node's own request when served by @hono/node-server, else the web body.
 * A request whose client hung up before the body is read (while the caller was authenticated, say)
 * has already emitted its error, which a listener added now would never hear: its error is thrown
 * here, as the one http/aborted.ts knows by identity.
 */
function bodyStream(c: HonoContext): Readable {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming?.errored) throw incoming.errored;
  if (incoming) return incoming;
  const body = c.req.raw.body;
  return body ? Readable.fromWeb(body as WebReadableStream) : Readable.from([]);
}

/**
 * The body at once when all its declared bytes are already here and nothing has read them: a small
 * body arrives with its head, and Node has it in the request's buffer before the handler's first
 * await returns. Reading it so spares the stream's async iterator, a fair share of a small POST's cost.
 */
function arrivedWhole(stream: Readable, length: number | undefined): Buffer | undefined {
  if (length === undefined || stream.readableLength !== length || stream.readableFlowing !== null || stream.readableEnded) return undefined;
  return stream.read() as Buffer;
}

/**
 * The whole body as text, at most `limit` bytes. While it is read, the bytes and then the text decoded
 * from them are held, so twice its size is drawn from `budget` (a declared length at once, before
 * any byte is read; a chunked body as it arrives) and given back when this returns: the caller parses
 * the text before anything else holds it.
 */
export async function readBuffered(c: HonoContext, limit: number, budget: BodyMemoryBudget): Promise<string> {
  const length = declaredLength(c);
  if (length === 0) return '';
  if (length !== undefined && length > limit) throw tooLarge(limit);
  let held = 0;
  const hold = (bytes: number) => {
    budget.take(2 * bytes - held);
    held = 2 * bytes;
  };
  try {
    if (length !== undefined) hold(length);
    const stream = bodyStream(c);
    const arrived = arrivedWhole(stream, length);
    if (arrived !== undefined) return arrived.toString('utf8');
    // With a declared length the bytes go straight into one buffer of that size: no second copy.
    const whole = length === undefined ? undefined : Buffer.allocUnsafe(length);
    const chunks: Buffer[] = [];
    let received = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (received + chunk.length > (length ?? limit)) throw tooLarge(limit);
      if (whole) whole.set(chunk, received);
      else {
        hold(received + chunk.length);
        chunks.push(chunk);
      }
      received += chunk.length;
    }
    return (whole ? whole.subarray(0, received) : Buffer.concat(chunks, received)).toString('utf8');
  } finally {
    budget.give(held);
  }
}

function contentType(c: HonoContext): string {
  return requestHeader(c, 'content-type') ?? '';
}

/** Whether the request says its body is multipart/form-data. */
export function isMultipart(c: HonoContext): boolean {
  return multipartType.test(contentType(c));
}

function unsupported(c: HonoContext, expected: string): AppError {
  return new AppError('UNSUPPORTED_MEDIA_TYPE', `Request bodies here must be ${expected}`, { contentType: contentType(c) || null });
}

/**
 * A JSON body. An empty body counts as `{}` (action endpoints take none, DECISIONS §1); a non-empty
 * body must be declared as JSON (415) and parse (400).
 */
export async function readJsonBody(c: HonoContext, limit: number, budget: BodyMemoryBudget): Promise<unknown> {
  if (declaredLength(c) === 0) return {};
  if (!jsonType.test(contentType(c))) {
    const text = await readBuffered(c, limit, budget);
    if (text.length === 0) return {};
    throw unsupported(c, 'JSON with Content-Type: application/json');
  }
  const text = await readBuffered(c, limit, budget);
  if (text.length === 0) return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw validationError([{ path: '', message: `Malformed JSON: ${(error as Error).message}` }], 'Request body is not valid JSON');
  }
}

/** A form body (`application/x-www-form-urlencoded`): each name once, as a string. */
export async function readFormBody(c: HonoContext, limit: number, budget: BodyMemoryBudget): Promise<Record<string, string>> {
  if (!formType.test(contentType(c))) throw unsupported(c, 'a form, with Content-Type: application/x-www-form-urlencoded');
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(await readBuffered(c, limit, budget))) {
    // A parameter given twice is ambiguous (RFC 6749 §3.1 refuses it); it is never the last one silently.
    if (Object.hasOwn(fields, name)) throw validationError([{ path: name, message: 'Must be given once' }]);
    fields[name] = value;
  }
  return fields;
}

/** One part of a multipart body: a text field, or a file whose bytes are read from `stream`. */
export type MultipartPart =
  | { kind: 'field'; name: string; value: string }
  | { kind: 'file'; name: string; filename: string; mimeType: string; stream: Readable };

/**
 * A multipart body as its parts, in order. Each file's stream must be read (or resumed) before the next
 * part arrives, as with any streaming parser; an operation that stops early just stops iterating.
 */
export type MultipartBody = AsyncIterable<MultipartPart>;

/** Counts the bytes of the whole body and fails the stream past the limit; every streamed body passes here (streamed-memory.ts). */
class ByteLimit extends Transform {
  private seen = 0;
  private readonly limit: number;
  constructor(limit: number) {
    super();
    this.limit = limit;
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    streamedThrough(chunk.length);
    if (this.seen > this.limit) done(tooLarge(this.limit));
    else done(null, chunk);
  }
}

/** A body of raw bytes of any type, as it arrives (a direct upload). */
export interface BytesBody {
  stream: Readable;
  /** The declared length, when the request declares one. */
  length: number | undefined;
  contentType: string | undefined;
}

/**
 * The raw body, failing with 413 the moment it passes `limit` (a declared length over it is refused
 * at once). It starts flowing only when the operation takes `stream`: one that fails first leaves the
 * body to Node, which discards it after the response. One that stops reading part-way (a type not
 * allowed, the limit passed) has the rest drained, so the response can go out.
 */
export function readBytesBody(c: HonoContext, limit: number): BytesBody {
  const length = declaredLength(c);
  if (length !== undefined && length > limit) throw tooLarge(limit);
  let stream: Readable | undefined;
  const contentType = requestHeader(c, 'content-type');
  return {
    length,
    contentType,
    get stream() {
      if (stream) return stream;
      const source = bodyStream(c);
      const counter = new ByteLimit(limit);
      source.on('error', (error) => counter.destroy(error));
      counter.on('close', () => {
        if (source.readableEnded || source.destroyed) return;
        source.unpipe(counter);
        source.resume();
      });
      stream = source.pipe(counter);
      return stream;
    },
  };
}

/** A multipart body, parsed as it streams in (busboy); nothing is buffered beyond a part's current chunk. */
export function readMultipartBody(c: HonoContext, limit: number): MultipartBody {
  const type = contentType(c);
  if (!multipartType.test(type)) throw unsupported(c, 'multipart/form-data');
  const length = declaredLength(c);
  if (length !== undefined && length > limit) throw tooLarge(limit);
  return {
    [Symbol.asyncIterator]: () => multipartParts(bodyStream(c), type, limit),
  };
}

async function* multipartParts(source: Readable, type: string, limit: number): AsyncGenerator<MultipartPart> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { 'content-type': type }, limits: { fieldSize: 1024 * 1024, fields: 100, parts: 1000 } });
  } catch (error) {
    throw validationError([{ path: '', message: `Malformed multipart body: ${(error as Error).message}` }]);
  }
  const queue: MultipartPart[] = [];
  let failure: unknown;
  let finished = false;
  let wake: (() => void) | undefined;
  // The file being read: a failure of the body must reach its reader, or it would wait for bytes forever.
  let currentFile: Readable | undefined;
  const signal = () => {
    wake?.();
    wake = undefined;
  };
  // The request's own error (a client that hung up) goes on as it is: http/aborted.ts knows it by identity.
  const fail = (error: unknown) => {
    failure ??= error instanceof AppError || error === source.errored ? error : validationError([{ path: '', message: `Malformed multipart body: ${(error as Error).message}` }]);
    currentFile?.destroy(failure as Error);
    signal();
  };
  parser.on('field', (name, value) => {
    queue.push({ kind: 'field', name, value });
    signal();
  });
  parser.on('file', (name, stream, info) => {
    const file = readerSide(stream, fail);
    currentFile = file;
    queue.push({ kind: 'file', name, filename: info.filename ?? '', mimeType: info.mimeType, stream: file });
    signal();
  });
  parser.on('close', () => {
    finished = true;
    signal();
  });
  parser.on('error', fail);
  const counter = new ByteLimit(limit);
  counter.on('error', fail);
  source.on('error', fail);
  source.pipe(counter).pipe(parser);
  try {
    for (;;) {
      if (failure !== undefined) throw failure;
      const part = queue.shift();
      if (part) {
        yield part;
        continue;
      }
      if (finished) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    source.unpipe(counter);
    counter.unpipe(parser);
    // What the operation did not read is drained so the response can go out; a failed body is not.
    if (!finished && failure === undefined) source.resume();
  }
}

/**
 * What the operation reads of one file part. Busboy destroys its own file stream with a bare Error
 * when the body breaks off ("Unexpected end of file"): given to the operation as it is, that error
 * would reach the client as a 500, and once the operation had stopped listening it would be an
 * unhandled 'error' event that ends the process. The operation reads a stream of its own instead,
 * failed with the body's failure (a 400, or the client's hang-up) by `fail`; busboy's stream always
 * has a listener.
 */
function readerSide(partStream: Readable, fail: (error: unknown) => void): PassThrough {
  const file = new PassThrough();
  partStream.on('error', fail);
  // An operation that no longer reads the part may have removed its listeners; the failure it did
  // not wait for must not end the process.
  file.on('error', () => undefined);
  // A reader that gave up (its own limit passed, say) leaves busboy to drain the rest of the part.
  file.on('close', () => partStream.resume());
  partStream.pipe(file);
  return file;
}
