import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Clock } from '../core/clock.ts';
import type { Context } from '../core/context.ts';
import type { Transaction } from '../db/dialect.ts';
import type { Route } from '../http/route.ts';

/**
 * What a plugin is (decisions/0023): a module that says who it is, what settings it takes, which
 * hooks it listens to and which routes it adds. `definePlugin` checks nothing; the loader does.
 */
export const hookNames = [
  'content:beforeSave',
  'content:afterSave',
  'content:afterPublish',
  'content:afterUnpublish',
  'content:afterDelete',
  'media:afterUpload',
  'media:afterDelete',
  'user:afterSignIn',
  'comment:afterCreate',
  'comment:afterApprove',
  'comment:afterModerate',
  'comment:afterUpdate',
  'comment:afterDelete',
] as const;
export type HookName = (typeof hookNames)[number];
export type AfterHookName = Exclude<HookName, 'content:beforeSave'>;

/** Who caused an event: a user (with the credential that proved it), or the system (CLI, scheduler). */
export type Actor =
  | { kind: 'user'; userId: string; email: string; credential: { type: string; id: string } }
  | { kind: 'system' };

/** An entry as hooks and webhooks see it: its working values, as an editor reads them. */
export interface EntrySnapshot {
  collection: string;
  id: string;
  slug: string;
  locale: string;
  status: string;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
}

export interface MediaSnapshot {
  id: string;
  filename: string;
  mimeType: string;
  size: number;
  storageKey: string;
}

/** A comment as hooks and webhooks see it (src/comments/): no email, no client address. */
export interface CommentSnapshot {
  id: string;
  collection: string;
  entryId: string;
  parentId: string | null;
  status: string;
  authorName: string;
  authorUserId: string | null;
  body: string;
  createdAt: string;
}

export interface HookEvents {
  /** Before a create or an update is validated: return `{ data }` to change it, throw `refuseSave` to refuse it. */
  'content:beforeSave': { operation: 'create' | 'update'; collection: string; entryId?: string; data: Record<string, unknown>; actor: Actor };
  'content:afterSave': { entry: EntrySnapshot; created: boolean; actor: Actor };
  'content:afterPublish': { entry: EntrySnapshot; actor: Actor };
  'content:afterUnpublish': { entry: EntrySnapshot; actor: Actor };
  /** `permanent`: deleted for good; otherwise moved to the trash. */
  'content:afterDelete': { entry: EntrySnapshot; permanent: boolean; actor: Actor };
  'media:afterUpload': { item: MediaSnapshot; actor: Actor };
  'media:afterDelete': { item: MediaSnapshot; actor: Actor };
  'user:afterSignIn': { user: { id: string; email: string; name: string }; method: string; sessionId: string; actor: Actor };
  /** Posted (its status says whether it waits for moderation), or imported. */
  'comment:afterCreate': { comment: CommentSnapshot; actor: Actor };
  /** Shown publicly: approved by an editor, or posted where no moderation holds it. */
  'comment:afterApprove': { comment: CommentSnapshot; actor: Actor };
  /** Moved to another moderation state than approved (pending, spam, trash). */
  'comment:afterModerate': { comment: CommentSnapshot; previousStatus: string; actor: Actor };
  /** Edited by an editor. */
  'comment:afterUpdate': { comment: CommentSnapshot; actor: Actor };
  /** Deleted for good (its replies with it). */
  'comment:afterDelete': { comment: CommentSnapshot; actor: Actor };
}

/**
 * An event on its way to the plugins, in the two forms they take it: `value()`, as hooks get it, built
 * only when one listens; `serializable(withData)`, built only when a plugin consumes events, the same
 * event for the queue's JSON, whose JSON fields may still be the text they are stored as
 * (core/raw-json.ts), so queuing an entry's event parses nothing. Without `withData` an entry's event
 * leaves out the entry's field values.
 */
export interface OutgoingEvent<E extends AfterHookName> {
  value(): HookEvents[E];
  serializable(withData: boolean): QueuedHookEvents[E];
}

/**
 * The events as the queue holds them: an entry's field values (`entry.data`) only where the plugin
 * asked for that event's (`PluginHost.takeEventData`); most consumers (the audit log) need only what
 * happened to which entry, and the values are most of an event's size.
 */
export type QueuedHookEvents = {
  [E in AfterHookName]: HookEvents[E] extends { entry: EntrySnapshot } ? Omit<HookEvents[E], 'entry'> & { entry: Omit<EntrySnapshot, 'data'> & { data?: EntrySnapshot['data'] } } : HookEvents[E];
};

/** What every hook is given besides its event. */
export interface HookContext<Settings> {
  pluginId: string;
  settings: Settings;
  log: Logger;
  clock: Clock;
}

/** A transactional hook also gets the writer's transaction: what it writes commits or rolls back with the change. */
export interface TransactionalHookContext<Settings> extends HookContext<Settings> {
  db: Transaction;
}

export type BeforeSaveResult = { data: Record<string, unknown> } | undefined | void;

export interface PluginHooks<Settings> {
  'content:beforeSave'?: (event: HookEvents['content:beforeSave'], ctx: HookContext<Settings>) => BeforeSaveResult | Promise<BeforeSaveResult>;
  'content:afterSave'?: AfterHook<'content:afterSave', Settings>;
  'content:afterPublish'?: AfterHook<'content:afterPublish', Settings>;
  'content:afterUnpublish'?: AfterHook<'content:afterUnpublish', Settings>;
  'content:afterDelete'?: AfterHook<'content:afterDelete', Settings>;
  'media:afterUpload'?: AfterHook<'media:afterUpload', Settings>;
  'media:afterDelete'?: AfterHook<'media:afterDelete', Settings>;
  'user:afterSignIn'?: AfterHook<'user:afterSignIn', Settings>;
  'comment:afterCreate'?: AfterHook<'comment:afterCreate', Settings>;
  'comment:afterApprove'?: AfterHook<'comment:afterApprove', Settings>;
  'comment:afterModerate'?: AfterHook<'comment:afterModerate', Settings>;
  'comment:afterUpdate'?: AfterHook<'comment:afterUpdate', Settings>;
  'comment:afterDelete'?: AfterHook<'comment:afterDelete', Settings>;
}

export type AfterHook<E extends AfterHookName, Settings> = (event: HookEvents[E], ctx: HookContext<Settings>) => void | Promise<void>;
export type TransactionalHook<E extends AfterHookName, Settings> = (event: HookEvents[E], ctx: TransactionalHookContext<Settings>) => Promise<void>;
export type TransactionalHooks<Settings> = { [E in AfterHookName]?: TransactionalHook<E, Settings> };

/**
 * An event as a plugin's `consumeEvents` gets it from the queue: what happened, when, to which
 * resource (`resourceOf`), and the event both parsed and as the JSON text it was queued as.
 */
export type QueuedEvent = { [E in AfterHookName]: { name: E; at: string; resource: { type: string; id: string }; event: QueuedHookEvents[E]; json: string } }[AfterHookName];

/** Work a plugin does in every server process while it serves (webhook deliveries, pruning the audit log). */
export interface BackgroundService {
  stop(): Promise<void>;
}

/** What a background service runs with: the process's context, with no caller. */
export type BackgroundContext = Omit<Context, 'principal'>;

export interface PluginDefinition<Settings = Record<string, never>> {
  /** Lower-case letters, digits and dashes: the plugin's path segment (`/plugins/:id`). */
  id: string;
  name: string;
  /** A semantic version (`1.2.0`). */
  version: string;
  description: string;
  /** Its settings, each with a default: `{}` must pass (what a plugin runs with until an admin sets any). */
  settings?: z.ZodType<Settings>;
  /** Whether it runs before an admin first enables or disables it; true unless it says otherwise. */
  enabledByDefault?: boolean;
  /**
   * After-hooks run once the change has committed; one that throws is logged and the request goes on.
   * `content:beforeSave` runs before the save, within the configured time limit.
   */
  hooks?: PluginHooks<Settings>;
  /**
   * Hooks run inside the writer's transaction, for durable records of the change (an outbox, an audit
   * row): nothing is recorded for a change that rolls back, and a throw here rolls the change back.
   */
  transactionalHooks?: TransactionalHooks<Settings>;
  /**
   * Takes every after-hook event from the plugins' queue (decisions/0030): the change's transaction
   * writes one narrow row naming the plugins enabled then (nothing for a change that rolls back), and
   * once it has committed the events are handed over in batches, in the order they happened, in a
   * transaction of their own that also takes them off the queue, so what this writes through `ctx.db`
   * is written exactly once. A throw rolls the batch back; it is logged and handed over again later,
   * and the plugin's later events wait behind it (other plugins' do not). The durable records of a
   * change at a fraction of a transactional hook's cost: how the outbox and the audit log are written.
   * An entry's event carries the entry's field values only if the plugin asked for that event's
   * (`PluginHost.takeEventData`) before the change was made.
   */
  consumeEvents?: (events: readonly QueuedEvent[], ctx: TransactionalHookContext<Settings>) => Promise<void>;
  /** Routes under `/_cms/api/plugins/:id`, declared with `defineRoute` like Folio's own (paths relative to that). */
  routes?: readonly Route[];
  /** Started once per server process (not by the CLI); stopped when the server stops. */
  background?: (ctx: BackgroundContext) => BackgroundService;
}

/** A plugin as loaded: its definition, and the specifier configuration named it by. */
export interface LoadedPlugin {
  definition: PluginDefinition<unknown>;
  source: string;
}

/** Types a plugin's definition; the loader checks it when the server starts. */
export function definePlugin<Settings = Record<string, never>>(plugin: PluginDefinition<Settings>): PluginDefinition<Settings> {
  return plugin;
}
