import type { Readable } from 'node:stream';
import type { AuthorizedContext } from '../../core/operation.ts';
import { AppError } from '../../core/errors.ts';
import { ingestFile, type StoredFile } from '../../media/ingest.ts';
import { newStorageKey } from '../../media/keys.ts';
import { OutgoingError, outgoingRequest } from '../../net/outgoing.ts';
import { TransientFailure, withRetries } from '../../net/retry.ts';

/**
 * One attachment's bytes, fetched through the guarded client (decisions/0026) and stored through the
 * media library's own intake (type, dimensions, hash). Timeouts, broken connections, 429 and 5xx are
 * tried again after a growing pause; an answer that cannot become a file (a 404, an HTML page, too
 * large, a type not allowed, a refused address) is final at once: retrying would not change it.
 */
export class DownloadFailure extends Error {
  override name = 'DownloadFailure';
}

const maxRedirects = 5;

export async function downloadAttachment(ctx: AuthorizedContext, url: string, signal?: AbortSignal): Promise<StoredFile> {
  const { retries, retryDelayMs } = ctx.config.import.media;
  try {
    return await withRetries(() => downloadOnce(ctx, url, signal), { retries, delayMs: retryDelayMs, signal });
  } catch (error) {
    // Stopped (the job's lease lost, the server shutting down): not the file's failure.
    signal?.throwIfAborted();
    throw error instanceof DownloadFailure ? error : new DownloadFailure(error instanceof Error ? error.message : String(error));
  }
}

async function downloadOnce(ctx: AuthorizedContext, url: string, signal: AbortSignal | undefined): Promise<StoredFile> {
  const { timeoutMs } = ctx.config.import.media;
  const limit = ctx.config.media.uploadLimit;
  let response;
  try {
    response = await outgoingRequest(url, { timeoutMs, maxBytes: limit, maxRedirects, allowPrivate: ctx.config.outgoingAllowPrivate, signal });
  } catch (error) {
    throw outgoingFailure(error);
  }
  const { status, headers, body } = response;
  if (status !== 200) {
    body.destroy();
    const message = `The server answered ${status}`;
    throw status === 429 || status >= 500 ? new TransientFailure(message) : new DownloadFailure(message);
  }
  if (/^text\/html\b/i.test(headers['content-type'] ?? '')) {
    body.destroy();
    throw new DownloadFailure('The server answered with an HTML page, not the file');
  }
  if (Number(headers['content-length'] ?? 0) > limit) {
    body.destroy();
    throw new DownloadFailure(`The file is larger than the ${limit} bytes media may have`);
  }
  let file: StoredFile;
  try {
    file = await ingestFile(ctx, body as Readable & AsyncIterable<Buffer>, { key: newStorageKey(filenameOf(url), ctx.clock.now()), claimedType: headers['content-type'] ?? 'application/octet-stream', maxBytes: limit });
  } catch (error) {
    body.destroy();
    if (error instanceof OutgoingError) throw outgoingFailure(error);
    if (error instanceof AppError) throw new DownloadFailure(error.status === 413 ? `The file is larger than the ${limit} bytes media may have` : error.message);
    throw error;
  }
  if (file.mimeType === 'text/html') {
    await ctx.storage.delete([file.key]);
    throw new DownloadFailure('The server answered with an HTML page, not the file');
  }
  return file;
}

function outgoingFailure(error: unknown): Error {
  if (!(error instanceof OutgoingError)) return error as Error;
  if (error.reason === 'timeout' || error.reason === 'network') return new TransientFailure(error.message);
  if (error.reason === 'too-large') return new DownloadFailure(`The file is larger than the media upload limit: ${error.message}`);
  return new DownloadFailure(error.message);
}

/** The file's name as the URL has it (`/uploads/2024/05/photo.jpg` → `photo.jpg`). */
export function filenameOf(url: string): string {
  const last = (URL.parse(url)?.pathname ?? '').split('/').filter(Boolean).pop() ?? '';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // A malformed escape: the name as written.
  }
  return name || 'file';
}
