import type { Readable } from 'node:stream';

/** A byte range, both ends included, as HTTP `Range` names them. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * What an operation returns for a file: its bytes on demand and what a client may cache it by. The
 * HTTP adapter answers conditional and range requests from it (200, 206, 304, 416), so operations
 * never see `Range` or `If-None-Match`.
 */
export interface ByteSource {
  contentType: string;
  size: number;
  /** A strong validator of these exact bytes, without quotes. */
  etag?: string;
  /** `attachment` for what a browser must not render in the site's origin (HTML, SVG…). */
  disposition?: 'inline' | 'attachment';
  filename?: string;
  /**
   * Where the bytes are served from instead (a short-lived presigned URL of object storage): the
   * adapter redirects there and opens nothing.
   */
  redirect?: string;
  /** The bytes, or only `range` of them; called once per response. */
  open(range?: ByteRange): Readable | Promise<Readable>;
}
