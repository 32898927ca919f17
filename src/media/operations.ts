import type { z } from 'zod';
import { isoNow } from '../core/clock.ts';
import type { AuthorizedContext } from '../core/operation.ts';
import { decodeCursor, encodeCursor } from '../core/cursor.ts';
import { AppError, notFound, validationError, type ValidationIssue } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { defineOperation } from '../core/operation.ts';
import { toPage, type Page } from '../core/pagination.ts';
import { inTransaction } from '../db/dialect.ts';
import { actorOf, emitEvent, mediaSnapshot } from '../plugins/events.ts';
import { insertUploaded } from './upload-event.ts';
import { mediaRead, mediaWrite } from './access.ts';
import { describeStoredFile, type StoredFile } from './ingest.ts';
import { isAllowedType, typeNotAllowed } from './inspect.ts';
import { toMediaItem } from './items.ts';
import { storageKeyProblem } from './keys.ts';
import type { ListMediaQuery, MediaItem, RegisterMediaBody, UpdateMediaBody } from './schemas.ts';
import * as store from './store.ts';

export const listMedia = defineOperation({
  name: 'media.list',
  access: mediaRead,
  async run(ctx, input: z.output<typeof ListMediaQuery>): Promise<Page<MediaItem>> {
    const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor, 2);
    const rows = await store.listMedia(ctx.db, {
      mimePrefix: input.mimeType,
      text: input.q,
      after: after && { createdAt: String(after[0]), id: String(after[1]) },
      limit: input.limit,
    });
    return toPage(rows, input.limit, (row) => encodeCursor([row.created_at, row.id]), (row) => toMediaItem(ctx, row));
  },
});

async function requireMedia(ctx: AuthorizedContext, id: string): Promise<store.MediaRow> {
  const row = await store.findMedia(ctx.db, id);
  if (!row) throw notFound(`Media ${id}`);
  return row;
}

export const getMedia = defineOperation({
  name: 'media.get',
  access: mediaRead,
  async run(ctx, input: { id: string }): Promise<{ item: MediaItem }> {
    return { item: toMediaItem(ctx, await requireMedia(ctx, input.id)) };
  },
});

/** Alternative text, caption, title and the recorded dimensions; the file itself never changes. */
export const updateMedia = defineOperation({
  name: 'media.update',
  access: mediaWrite,
  async run(ctx, input: { id: string } & z.output<typeof UpdateMediaBody>): Promise<{ item: MediaItem }> {
    const { id, ...changes } = input;
    const row = await store.updateMedia(ctx.db, id, { ...changes, updated_at: isoNow(ctx.clock) });
    if (!row) throw notFound(`Media ${id}`);
    return { item: toMediaItem(ctx, row) };
  },
});

/**
 * Removes the record, then its file and every image derived from it. Content that points at the item
 * keeps its reference (mcp.md: broken references stay), and reads say the item is gone.
 */
export const deleteMedia = defineOperation({
  name: 'media.delete',
  access: mediaWrite,
  async run(ctx, input: { id: string }): Promise<{ success: true; id: string }> {
    const keys = await inTransaction(ctx.db, async (db) => {
      const row = await store.findMedia(db, input.id);
      if (!row) throw notFound(`Media ${input.id}`);
      const derived = await store.listDerivativeKeys(db, row.id);
      await store.deleteMedia(db, row.id, row.storage_key);
      await emitEvent(ctx, db, 'media:afterDelete', { item: mediaSnapshot(row), actor: actorOf(ctx.principal) });
      return [row.storage_key, ...derived];
    });
    // After the commit: a failed delete must not leave a record whose file is gone.
    await ctx.storage.delete(keys);
    return { success: true, id: input.id };
  },
});

/**
 * `POST /media`: a record for an object sent to storage directly (DECISIONS §4c). An object already
 * there is described from its bytes, and declared values it contradicts are a 400; a key with no
 * object yet keeps the declared values until the bytes arrive.
 */
export const registerMedia = defineOperation({
  name: 'media.register',
  access: mediaWrite,
  async run(ctx, input: z.output<typeof RegisterMediaBody>): Promise<{ item: MediaItem }> {
    const keyProblem = storageKeyProblem(input.storageKey);
    if (keyProblem) throw validationError([{ path: 'storageKey', message: keyProblem }]);
    if (await store.findMediaByKey(ctx.db, input.storageKey)) throw keyTaken(input.storageKey);
    const stored = await describeStoredFile(ctx.storage, input.storageKey, input.mimeType);
    if (stored) checkDeclared(input, stored);
    const mimeType = stored?.mimeType ?? input.mimeType;
    if (!isAllowedType(mimeType, ctx.config.media.allowedTypes)) throw typeNotAllowed(mimeType, ctx.config.media.allowedTypes);
    if (input.size > ctx.config.media.uploadLimit) {
      throw new AppError('PAYLOAD_TOO_LARGE', `Files may be at most ${ctx.config.media.uploadLimit} bytes`, { limit: ctx.config.media.uploadLimit });
    }
    const now = isoNow(ctx.clock);
    const row: store.MediaRow = {
      id: newId(),
      storage_key: input.storageKey,
      filename: input.filename,
      mime_type: mimeType,
      size: stored?.size ?? input.size,
      width: stored ? (stored.dimensions?.width ?? null) : (input.width ?? null),
      height: stored ? (stored.dimensions?.height ?? null) : (input.height ?? null),
      alt: input.alt ?? null,
      caption: input.caption ?? null,
      title: null,
      content_hash: stored?.contentHash ?? null,
      created_by: ctx.actor?.userId ?? null,
      created_at: now,
      updated_at: now,
    };
    if (!(await insertUploaded(ctx, row))) throw keyTaken(input.storageKey);
    return { item: toMediaItem(ctx, row) };
  },
});

function keyTaken(storageKey: string): AppError {
  return new AppError('CONFLICT', `Another media item already uses the storage key ${storageKey}`, { storageKey });
}

/** Every declared value the bytes contradict, each named. */
function checkDeclared(input: z.output<typeof RegisterMediaBody>, stored: StoredFile): void {
  const issues: ValidationIssue[] = [];
  if (input.size !== stored.size) issues.push({ path: 'size', message: `The stored object has ${stored.size} bytes` });
  if (input.mimeType !== stored.mimeType) issues.push({ path: 'mimeType', message: `The stored object is ${stored.mimeType}` });
  const { width, height } = stored.dimensions ?? {};
  const notImage = 'The stored object is not an image';
  if (input.width !== undefined && input.width !== width) issues.push({ path: 'width', message: width ? `The stored image is ${width} pixels wide` : notImage });
  if (input.height !== undefined && input.height !== height) issues.push({ path: 'height', message: height ? `The stored image is ${height} pixels high` : notImage });
  if (issues.length > 0) throw validationError(issues);
}
