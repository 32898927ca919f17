import type { Readable } from 'node:stream';

/** A byte range, both ends included, as HTTP `Range` names them. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * A `Content-Disposition` value with the file name in RFC 8187 form, which any name survives: every
 * byte outside RFC 8187's attr-char is percent-encoded (encodeURIComponent leaves `'()*` as they are).
 */
export function contentDisposition(disposition: 'inline' | 'attachment', filename: string | undefined): string {
  if (!filename) return disposition;
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename*=UTF-8''${encoded}`;
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
  /** The encoding of these bytes (precompressed files), sent as `Content-Encoding`. */
  encoding?: 'gzip' | 'br';
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
