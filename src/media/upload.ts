import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { isoNow } from '../core/clock.ts';
import type { AuthorizedContext } from '../core/operation.ts';
import { AppError, notFound, validationError } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { access, defineOperation } from '../core/operation.ts';
import { parseInput } from '../core/validate.ts';
import { inTransaction } from '../db/dialect.ts';
import { recordStoredFile } from './upload-event.ts';
import type { BytesBody, MultipartBody } from '../http/body.ts';
import { apiBasePath } from '../http/paths.ts';
import { mediaWrite } from './access.ts';
import { completeArrivedFile, ingestFile, type StoredFile } from './ingest.ts';
import { isAllowedType, typeNotAllowed } from './inspect.ts';
import { newStorageKey } from './keys.ts';
import type { MediaItem, UploadUrlBody } from './schemas.ts';
import * as store from './store.ts';

/** How long a direct-upload URL may be used. */
const uploadUrlLifetimeSeconds = 15 * 60;

const UploadFields = z.strictObject({
  alt: z.string().max(1000).optional(),
  caption: z.string().max(5000).optional(),
});

/**
 * `POST /media/upload`: the file streams to storage as it arrives, typed, measured and hashed on the
 * way (ingestFile). The same bytes uploaded again are stored once: the second upload answers with the
 * existing record (`created: false`) and its copy is removed. A body that fails half-way leaves no
 * record and no file.
 */
export const uploadMedia = defineOperation({
  name: 'media.upload',
  access: mediaWrite,
  async run(ctx, input: { parts: MultipartBody }): Promise<{ item: MediaItem; created: boolean }> {
    let file: StoredFile | undefined;
    let filename = '';
    const fields: Record<string, string> = {};
    try {
      for await (const part of input.parts) {
        if (part.kind === 'field') {
          if (Object.hasOwn(fields, part.name)) throw validationError([{ path: part.name, message: 'Must be given once' }]);
          fields[part.name] = part.value;
        } else if (part.name === 'file' && file === undefined) {
          filename = part.filename || 'file';
          file = await ingestFile(ctx, part.stream, { key: newStorageKey(filename, ctx.clock.now()), claimedType: part.mimeType, maxBytes: ctx.config.media.uploadLimit });
        } else {
          part.stream.resume();
          throw validationError([{ path: part.name, message: part.name === 'file' ? 'Must be given once' : 'Unknown part: only file, alt and caption' }]);
        }
      }
      if (!file) throw validationError([{ path: 'file', message: 'Required: the file, as a multipart part named file' }]);
      const { item, created } = await recordStoredFile(ctx, file, { filename, ...parseInput(UploadFields, fields, 'fields') });
      return { item, created };
    } catch (error) {
      if (file) await ctx.storage.delete([file.key]);
      throw error;
    }
  },
});

/**
 * `POST /media/upload-url`: where the client sends a file's bytes itself. S3 answers with a presigned
 * PUT; local storage with Folio's own URL, signed by a secret only its grant's hash is kept of,
 * usable once before it expires. Then `POST /media` registers the record.
 */
export const createUploadUrl = defineOperation({
  name: 'media.uploadUrl',
  access: mediaWrite,
  async run(ctx, input: z.output<typeof UploadUrlBody>): Promise<{ uploadUrl: string; method: 'PUT'; headers: Record<string, string>; storageKey: string; expiresAt: string }> {
    const { allowedTypes, uploadLimit } = ctx.config.media;
    if (!isAllowedType(input.mimeType, allowedTypes)) throw typeNotAllowed(input.mimeType, allowedTypes);
    if (input.size > uploadLimit) throw new AppError('PAYLOAD_TOO_LARGE', `Files may be at most ${uploadLimit} bytes`, { limit: uploadLimit });
    const now = ctx.clock.now();
    const storageKey = newStorageKey(input.filename, now);
    const expiresAt = new Date(now.getTime() + uploadUrlLifetimeSeconds * 1000).toISOString();
    const presigned = await ctx.storage.presignUpload(storageKey, { contentType: input.mimeType, size: input.size, expiresInSeconds: uploadUrlLifetimeSeconds });
    if (presigned) return { uploadUrl: presigned.url, method: 'PUT', headers: presigned.headers, storageKey, expiresAt };
    const id = newId();
    const secret = randomBytes(24).toString('base64url');
    await store.deleteExpiredUploadGrants(ctx.db, isoNow(ctx.clock));
    await store.insertUploadGrant(ctx.db, {
      id,
      secret_hash: hashSecret(secret),
      storage_key: storageKey,
      mime_type: input.mimeType,
      size: input.size,
      created_by: ctx.actor?.userId ?? null,
      expires_at: expiresAt,
      used_at: null,
      created_at: now.toISOString(),
    });
    const uploadUrl = `${ctx.baseUrl}${apiBasePath}/media/upload/${id}.${secret}`;
    return { uploadUrl, method: 'PUT', headers: { 'content-type': input.mimeType }, storageKey, expiresAt };
  },
});

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * `PUT /media/upload/:grant`: the bytes of a local direct upload. The grant in the URL is the
 * credential (no bearer token: a browser may send the bytes itself); it is taken for this request
 * and given back if the upload fails, so a client may retry until it expires. The bytes must be the
 * size announced. A record registered before they arrived is completed from them.
 */
export const receiveDirectUpload = defineOperation({
  name: 'media.receiveUpload',
  access: access.public,
  async run(ctx, input: { grant: string; body: BytesBody }): Promise<{ storageKey: string; size: number }> {
    const grant = await takeGrant(ctx, input.grant);
    try {
      if (input.body.length !== undefined && input.body.length !== grant.size) {
        throw validationError([{ path: 'body', message: `Must be the ${grant.size} bytes announced to POST /media/upload-url` }]);
      }
      const file = await ingestFile(ctx, input.body.stream, { key: grant.storage_key, claimedType: grant.mime_type, maxBytes: grant.size });
      if (file.size !== grant.size) {
        await ctx.storage.delete([file.key]);
        throw validationError([{ path: 'body', message: `Must be the ${grant.size} bytes announced to POST /media/upload-url; got ${file.size}` }]);
      }
      const registered = await store.findMediaByKey(ctx.db, grant.storage_key);
      if (registered && registered.content_hash === null) await completeArrivedFile(ctx, registered);
      return { storageKey: grant.storage_key, size: file.size };
    } catch (error) {
      await store.releaseUploadGrant(ctx.db, grant.id);
      throw error;
    }
  },
});

/** The grant the URL names, taken for this request; any grant that cannot be used is the same 404. */
async function takeGrant(ctx: AuthorizedContext, token: string): Promise<store.UploadGrantRow> {
  const [id = '', secret = ''] = token.split('.');
  return inTransaction(ctx.db, async (db) => {
    const grant = await store.findUploadGrant(db, id);
    const given = Buffer.from(hashSecret(secret));
    const valid = grant !== undefined && timingSafeEqual(given, Buffer.from(grant.secret_hash));
    if (!valid || !(await store.claimUploadGrant(db, grant.id, isoNow(ctx.clock)))) {
      throw notFound('Upload URL (unknown, expired or already used)');
    }
    return grant;
  });
}
