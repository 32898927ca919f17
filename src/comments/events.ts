import type { Context } from '../core/context.ts';
import type { Transaction } from '../db/dialect.ts';
import { actorOf, emitEvent } from '../plugins/events.ts';
import type { CommentRow } from './store.ts';
import { commentSnapshot } from './view.ts';

type CommentHook = 'comment:afterCreate' | 'comment:afterApprove' | 'comment:afterUpdate' | 'comment:afterDelete';

/** Hands a comment's change to the plugins (and so to webhooks), in the transaction that made it. */
export async function emitCommentEvent(ctx: Pick<Context, 'plugins' | 'log' | 'clock' | 'principal'>, tx: Transaction, name: CommentHook, row: CommentRow, collection: string): Promise<void> {
  await emitEvent(ctx, tx, name, { comment: commentSnapshot(row, collection), actor: actorOf(ctx.principal) });
}

/** A change of moderation state: `approved` is its own event (the comment went public), the others one event with the state before. */
export async function emitStatusChange(ctx: Pick<Context, 'plugins' | 'log' | 'clock' | 'principal'>, tx: Transaction, row: CommentRow, previousStatus: string, collection: string): Promise<void> {
  if (row.status === 'approved') return emitCommentEvent(ctx, tx, 'comment:afterApprove', row, collection);
  await emitEvent(ctx, tx, 'comment:afterModerate', { comment: commentSnapshot(row, collection), previousStatus, actor: actorOf(ctx.principal) });
}
