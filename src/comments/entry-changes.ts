import type { EntryChangeListener } from '../content/changes.ts';
import { deleteEntryComments } from './store.ts';

/** An entry deleted for good takes its comments with it (no foreign key reaches an entry table). */
export const dropEntryComments: EntryChangeListener = async (change, tx) => {
  if (change.kind === 'deleted') await deleteEntryComments(tx, change.entryId);
};
