import { createStore, del, get, set } from 'idb-keyval';

/**
 * Unsent edits kept in the browser (IndexedDB, through idb-keyval), one record per entry and one per
 * collection's new entry, so that a closed tab, a crash, a lost connection or an ended session loses
 * nothing (decisions/0043). Written on every edit, in order; removed once the server has them all.
 */
export interface LocalDraft {
  /** The unsent values by field slug (null clears a field). */
  edits: Record<string, unknown>;
  /** The `_rev` they were typed over, when the entry existed. */
  rev?: string;
  /** When they were last written (ISO). */
  savedAt: string;
}

const store = createStore('folio-panel', 'unsent-edits');

export function localDraftKey(collection: string, entryId: string | undefined): string {
  return `${collection}/${entryId ?? 'new'}`;
}

// One write at a time, in the order asked: a late-finishing older write never overwrites a newer one.
let queue: Promise<unknown> = Promise.resolve();

function inOrder(write: () => Promise<void>): Promise<void> {
  const next = queue.then(write, write);
  queue = next.catch(() => undefined);
  return next;
}

export function readLocalDraft(key: string): Promise<LocalDraft | undefined> {
  return queue.then(() => get<LocalDraft>(key, store)).catch(() => undefined);
}

/** Keeps `edits` for `key`, or forgets the key when there are none left. A browser without IndexedDB (private modes) only loses the copy. */
export function writeLocalDraft(key: string, draft: LocalDraft | undefined): Promise<void> {
  return inOrder(() => (draft === undefined || Object.keys(draft.edits).length === 0 ? del(key, store) : set(key, draft, store))).catch(() => undefined);
}
