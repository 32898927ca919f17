import type { z } from 'zod';
import { AppError } from '../core/errors.ts';
import { defineOperation, runOperation, type Operation } from '../core/operation.ts';
import { requireCollection } from '../schema/lookup.ts';
import { contentWrite } from './access.ts';
import { permanentlyDeleteEntry, publishEntry, restoreEntry, unpublishEntry } from './lifecycle.ts';
import { trashEntry } from './operations.ts';
import type { BulkBody, BulkResult } from './schemas.ts';

/** Each bulk action is the single-entry operation of the same name, run once per id. */
const actions: Record<z.output<typeof BulkBody>['action'], Operation<{ collection: string; id: string }, unknown>> = {
  publish: publishEntry,
  unpublish: unpublishEntry,
  trash: trashEntry,
  restore: restoreEntry,
  delete: permanentlyDeleteEntry,
};

type Result = z.output<typeof BulkResult>;

/**
 * One action on many entries of a collection (the panel's selection). Every id goes through its own
 * operation with its own access check and its own transaction, in the order given, so one refusal
 * (a missing entry, an entry not in the trash, a role that may not publish) is that id's answer and
 * the others go on. The call itself needs `content:write`; errors that are not the API's own (the
 * database gone) still fail the whole request.
 */
export const bulkContent = defineOperation({
  name: 'content.bulk',
  access: contentWrite,
  async run(ctx, input: { collection: string } & z.output<typeof BulkBody>): Promise<{ items: Result[] }> {
    await requireCollection(ctx.db, input.collection);
    const operation = actions[input.action];
    const items: Result[] = [];
    for (const id of input.ids) {
      try {
        await runOperation(operation, ctx, () => ({ collection: input.collection, id }));
        items.push({ id, ok: true });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        items.push({ id, ok: false, error: { code: error.code, message: error.message } });
      }
    }
    return { items };
  },
});
