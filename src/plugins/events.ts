import type { EntryChange, EntryChangeListener } from '../content/changes.ts';
import { columnData } from '../content/entries.ts';
import { fromColumnValue, responseColumnValue } from '../fields/columns.ts';
import type { Context, Principal } from '../core/context.ts';
import type { Transaction } from '../db/dialect.ts';
import type { MediaRow } from '../media/store.ts';
import type { Actor, AfterHookName, EntrySnapshot, HookEvents, MediaSnapshot, QueuedHookEvents } from './types.ts';

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
  if (ctx.plugins) await ctx.plugins.emit(ctx, tx, name, { value: () => event, serializable: () => event as QueuedHookEvents[E] });
}

type EntryHookName = 'content:afterSave' | 'content:afterPublish' | 'content:afterUnpublish' | 'content:afterDelete';

/**
 * An entry change as hooks: a save (or a restore) is `afterSave`; a creation that publishes at once
 * is a save and a publication; moving to the trash and deleting for good are both `afterDelete`.
 * Scheduling and unscheduling change no content and are not hooks.
 */
export const emitEntryChange: EntryChangeListener = async (change, tx, ctx) => {
  const plugins = ctx.plugins;
  if (!plugins) return;
  const actor = actorOf(change.actor);
  const emit = <E extends EntryHookName>(name: E, details: Omit<HookEvents[E], 'entry' | 'actor'>) =>
    plugins.emit(ctx, tx, name, {
      value: () => ({ entry: { ...entrySummary(change), data: columnData(change.collection.fields, change.entry, fromColumnValue) }, ...details, actor }) as HookEvents[E],
      serializable: (withData) => {
        const entry = withData ? { ...entrySummary(change), data: columnData(change.collection.fields, change.entry, responseColumnValue) } : entrySummary(change);
        return { entry, ...details, actor } as QueuedHookEvents[E];
      },
    });
  switch (change.kind) {
    case 'created':
      await emit('content:afterSave', { created: true });
      if (change.entry._status === 'published') await emit('content:afterPublish', {});
      return;
    case 'updated':
    case 'draftStaged':
    case 'draftDiscarded':
    case 'restored':
      return emit('content:afterSave', { created: false });
    case 'published':
      return emit('content:afterPublish', {});
    case 'unpublished':
      return emit('content:afterUnpublish', {});
    case 'trashed':
    case 'deleted':
      return emit('content:afterDelete', { permanent: change.kind === 'deleted' });
    case 'scheduled':
    case 'unscheduled':
      return;
  }
};

/** The entry as the change left it, but for its field values. */
function entrySummary(change: EntryChange): Omit<EntrySnapshot, 'data'> {
  const row = change.entry;
  return {
    collection: change.collection.slug,
    id: row._id,
    slug: row._slug,
    locale: row._locale,
    status: row._status,
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
