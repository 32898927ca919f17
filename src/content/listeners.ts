import { dropEntryComments } from '../comments/entry-changes.ts';
import type { Transaction } from '../db/dialect.ts';
import { emitEntryChange } from '../plugins/events.ts';
import { followEntryAddress } from '../redirects/listener.ts';
import { indexEntryChange } from '../search/indexer.ts';
import type { EntryChange, EntryChangeListener, ListenerContext } from './changes.ts';
import { recordMediaUsage } from './media-usage.ts';

declare module '../core/context.ts' {
  interface ContextServices {
    /** Told of every entry change inside its transaction (content/write.ts); fixed when the process starts. */
    entryListeners: EntryListeners;
  }
}

/**
 * The one ordered list of what hears of an entry change, fixed when a process starts: the search
 * index, where media items are used (decisions/0045), the redirects to its address
 * (decisions/0057), its comments (dropped with an entry deleted for good, decisions/0058), then the plugins' hooks, then whatever the process adds (tests add recorders). It can only be made here, so no process (server, job runner,
 * CLI, importer) can build a context that leaves the index, the usage or the plugins out.
 */
export class EntryListeners {
  private readonly listeners: readonly EntryChangeListener[];

  private constructor(added: readonly EntryChangeListener[]) {
    this.listeners = [indexEntryChange, recordMediaUsage, followEntryAddress, dropEntryComments, emitEntryChange, ...added];
  }

  static of(added: readonly EntryChangeListener[] = []): EntryListeners {
    return new EntryListeners(added);
  }

  /** Tells each listener in order; the first that throws stops the rest and rolls the write back. */
  async tell(change: EntryChange, tx: Transaction, ctx: ListenerContext): Promise<void> {
    for (const listener of this.listeners) await listener(change, tx, ctx);
  }
}
