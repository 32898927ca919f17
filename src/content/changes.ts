import type { Context, UserPrincipal } from '../core/context.ts';
import type { Transaction } from '../db/dialect.ts';
import type { LoadedCollection } from '../schema/store.ts';
import type { EntryRow } from './store.ts';
import type { EntryStatus } from './value-types.ts';

/**
 * What happened to an entry, one event per row written (content/write.ts). Search indexing, plugin
 * hooks, the webhook outbox and the audit log listen here, so none can miss a write.
 */
export type EntryChange = EntryCreated | EntryUpdated | EntryDeleted;

/** A change to an existing entry; `previousStatus` is its status before. */
export type EntryUpdateKind =
  /** Values saved that readers see at once: an entry never published, or a collection without drafts. */
  | 'updated'
  /** Values saved into the staged draft of a live entry; readers keep its live values. */
  | 'draftStaged'
  /** The working values went live (publish, the scheduler, an update with `status: published`). */
  | 'published'
  /** A live entry went back to draft (unpublish, an update with `status: draft`). */
  | 'unpublished'
  | 'scheduled'
  | 'unscheduled'
  /** The staged draft was dropped; the live values are the working ones again. */
  | 'draftDiscarded'
  | 'trashed'
  | 'restored';

interface ChangeOf<Kind extends string> {
  kind: Kind;
  collection: LoadedCollection;
  entryId: string;
  locale: string;
  /** The user acting; undefined for the scheduler and the CLI. */
  actor: UserPrincipal | undefined;
  /** The row as written (for `deleted`, as it was). */
  entry: EntryRow;
}

export type EntryCreated = ChangeOf<'created'>;

export interface EntryUpdated extends ChangeOf<EntryUpdateKind> {
  previousStatus: EntryStatus;
  /** Its slug before: a published entry whose slug changes moves to another address (redirects). */
  previousSlug: string;
  /** Set when the change only carried another member's shared (non-translatable) values to this one. */
  sharedFrom?: string;
}

/** Deleted for good, with its revisions and schedule. */
export type EntryDeleted = ChangeOf<'deleted'>;

/** What a listener may use of the writer's context: the plugins' hooks run with its log and clock. */
export type ListenerContext = Pick<Context, 'plugins' | 'log' | 'clock'>;

/**
 * Told of each change inside the writer's transaction, after the row is written; a listener that
 * throws rolls the write back. Work that must wait for the commit goes through `tx.afterCommit`.
 */
export type EntryChangeListener = (change: EntryChange, tx: Transaction, ctx: ListenerContext) => void | Promise<void>;
