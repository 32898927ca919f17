import type { Readable } from 'node:stream';
import type { ByteRange } from '../../core/results.ts';

declare module '../../core/context.ts' {
  interface ContextServices {
    /** Where media bytes live (local disk or S3), opened once per process. */
    storage: MediaStorage;
  }
}

/** What storage knows of an object without reading it. */
export interface StoredObject {
  size: number;
}

/** Where a client sends the bytes of a direct upload, and the headers it must send with them. */
export interface UploadTarget {
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
}

/**
 * Where media bytes live: local disk or S3-compatible object storage. Keys are already checked by
 * the caller (media/keys.ts); implementations still refuse one that would leave their root.
 * Every method streams: no object is ever held whole in memory.
 */
export interface MediaStorage {
  readonly kind: 'local' | 's3';
  /**
   * Stores `body` at `key` and resolves with the bytes written once they are durable. When `body`
   * fails (a client that hangs up, a limit passed) it rejects and nothing is left at `key`.
   */
  write(key: string, body: Readable, options: { contentType: string }): Promise<{ size: number }>;
  /** The object's size, or undefined when there is none at `key`. */
  stat(key: string): Promise<StoredObject | undefined>;
  /** The object's bytes (or `range` of them); rejects with NOT_FOUND when there is none. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Removes the objects; a key with no object is not an error. */
  delete(keys: readonly string[]): Promise<void>;
  /**
   * A URL the client may PUT the object's bytes to directly (S3 presigned), or undefined when the
   * storage takes direct uploads through Folio itself (local disk).
   */
  presignUpload(key: string, options: { contentType: string; size: number; expiresInSeconds: number }): Promise<UploadTarget | undefined>;
  /**
   * A short-lived URL the client may GET the object from (S3 presigned), when the deployment serves
   * files by redirect; undefined when Folio streams them.
   */
  presignDownload(key: string, options: { expiresInSeconds: number; contentType: string; disposition: string }): Promise<string | undefined>;
  /** The object's public URL, when the storage has a public base URL (a CDN or public bucket). */
  publicUrl(key: string): string | undefined;
  close(): Promise<void>;
}
