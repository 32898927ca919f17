import type { AuthorizedContext } from '../core/operation.ts';
import { inTransaction } from '../db/dialect.ts';
import { actorOf, emitEvent, mediaSnapshot } from '../plugins/events.ts';
import { insertMedia, type MediaRow } from './store.ts';

/** Inserts a new media record and tells the plugins (`media:afterUpload`) in the same transaction; false when its key is taken. */
export async function insertUploaded(ctx: AuthorizedContext, row: MediaRow): Promise<boolean> {
  return inTransaction(ctx.db, async (tx) => {
    if (!(await insertMedia(tx, row))) return false;
    await emitEvent(ctx, tx, 'media:afterUpload', { item: mediaSnapshot(row), actor: actorOf(ctx.principal) });
    return true;
  });
}
