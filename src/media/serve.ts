import type { z } from 'zod';
import type { AuthorizedContext } from '../core/operation.ts';
import { notFound } from '../core/errors.ts';
import { access, defineOperation } from '../core/operation.ts';
import { contentDisposition, type ByteSource } from '../core/results.ts';
import { dispositionOf } from './inspect.ts';
import { storageKeyProblem } from './keys.ts';
import { completeArrivedFile } from './ingest.ts';
import type { FileQuery } from './schemas.ts';
import * as store from './store.ts';
import { derivedImage, requestedTransform } from './transform.ts';

/** How long a redirect to a presigned GET may be followed (S3_SERVE=redirect). */
const presignedGetSeconds = 5 * 60;

/**
 * `GET /media/file/:key`: public, since keys are unguessable (DECISIONS §2). Any key that is not a
 * record's (malformed, traversal, unknown, still on its way) is the same 404. With transform
 * parameters it serves the derived image, made on first request.
 */
export const serveMediaFile = defineOperation({
  name: 'media.file',
  access: access.public,
  async run(ctx, input: { key: string } & z.output<typeof FileQuery>): Promise<ByteSource> {
    if (storageKeyProblem(input.key) !== undefined) throw notFound('File');
    let media = await store.findMediaByKey(ctx.db, input.key);
    if (media && media.content_hash === null) media = await completeArrivedFile(ctx, media);
    if (!media) throw notFound('File');
    const transform = requestedTransform(input, media.mime_type);
    if (!transform) {
      return fileSource(ctx, media.storage_key, { contentType: media.mime_type, size: media.size, etag: media.content_hash!, filename: media.filename });
    }
    const derived = await derivedImage(ctx, media, transform);
    const filename = `${media.filename.replace(/\.[^.]*$/, '')}.${transform.format}`;
    return fileSource(ctx, derived.storage_key, { contentType: derived.mime_type, size: derived.size, etag: derived.content_hash, filename });
  },
});

/** A stored file served as media files are: Range, its ETag, a presigned redirect where the deployment serves by redirect. */
export async function fileSource(ctx: AuthorizedContext, key: string, file: { contentType: string; size: number; etag: string; filename: string }): Promise<ByteSource> {
  const disposition = dispositionOf(file.contentType);
  const redirect = await ctx.storage.presignDownload(key, {
    expiresInSeconds: presignedGetSeconds,
    contentType: file.contentType,
    disposition: contentDisposition(disposition, file.filename),
  });
  return { ...file, disposition, redirect, open: (range) => ctx.storage.read(key, range) };
}
