import type { EntryChange } from '../content/changes.ts';
import { columnData } from '../content/entries.ts';
import type { Context, Principal } from '../core/context.ts';
import type { Transaction } from '../db/dialect.ts';
import type { MediaRow } from '../media/store.ts';
import type { Actor, AfterHookName, EntrySnapshot, HookEvents, MediaSnapshot } from './types.ts';

/**
 * Where the domain modules hand their events to the plugins. Each call is made by an operation (or
 * the one write path of entries), inside the transaction of the change, so REST, MCP, the CLI and
 * the importer all fire the same hooks, and none fires for a change that rolled back.
 */

type EventContext = Pick<Context, 'plugins' | 'log' | 'clock'>;

export function actorOf(principal: Principal | null | undefined): Actor {
  if (principal?.kind === 'user') return { kind: 'user', userId: principal.userId, email: principal.email, credential: { ...principal.credential } };
  return { kind: 'system' };
}

export async function emitEvent<E extends AfterHookName>(ctx: EventContext, tx: Transaction, name: E, event: HookEvents[E]): Promise<void> {
  if (ctx.plugins) await ctx.plugins.emit(ctx, tx, name, event);
}

/**
 * An entry change as hooks: a save (or a restore) is `afterSave`; a creation that publishes at once
 * is a save and a publication; moving to the trash and deleting for good are both `afterDelete`.
 * Scheduling and unscheduling change no content and are not hooks.
 */
export async function emitEntryChange(ctx: EventContext, change: EntryChange, tx: Transaction): Promise<void> {
  if (!ctx.plugins) return;
  const entry = entrySnapshot(change);
  const actor = actorOf(change.actor);
  switch (change.kind) {
    case 'created':
      await ctx.plugins.emit(ctx, tx, 'content:afterSave', { entry, created: true, actor });
      if (change.entry._status === 'published') await ctx.plugins.emit(ctx, tx, 'content:afterPublish', { entry, actor });
      return;
    case 'updated':
    case 'draftStaged':
    case 'draftDiscarded':
    case 'restored':
      return ctx.plugins.emit(ctx, tx, 'content:afterSave', { entry, created: false, actor });
    case 'published':
      return ctx.plugins.emit(ctx, tx, 'content:afterPublish', { entry, actor });
    case 'unpublished':
      return ctx.plugins.emit(ctx, tx, 'content:afterUnpublish', { entry, actor });
    case 'trashed':
    case 'deleted':
      return ctx.plugins.emit(ctx, tx, 'content:afterDelete', { entry, permanent: change.kind === 'deleted', actor });
    case 'scheduled':
    case 'unscheduled':
      return;
  }
}

function entrySnapshot(change: EntryChange): EntrySnapshot {
  const row = change.entry;
  return {
    collection: change.collection.slug,
    id: row._id,
    slug: row._slug,
    locale: row._locale,
    status: row._status,
    data: columnData(change.collection.fields, row),
    createdAt: row._created_at,
    updatedAt: row._updated_at,
    publishedAt: row._published_at,
  };
}

export function mediaSnapshot(row: MediaRow): MediaSnapshot {
  return { id: row.id, filename: row.filename, mimeType: row.mime_type, size: row.size, storageKey: row.storage_key };
}

/** The data a create or update goes on with, after the enabled plugins' `content:beforeSave` hooks. */
export async function dataBeforeSave(ctx: Pick<Context, 'plugins' | 'log' | 'clock' | 'db' | 'principal'>, event: Omit<HookEvents['content:beforeSave'], 'actor'>): Promise<Record<string, unknown>> {
  if (!ctx.plugins) return event.data;
  return ctx.plugins.beforeSave(ctx, { ...event, actor: actorOf(ctx.principal) });
}
