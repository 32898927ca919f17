import type { ContentCollection, Entry } from '../../api/client';
import { EntrySession } from './session';

/**
 * The sessions open in this tab, by `collection/id` (or a new entry's own key). A screen that
 * unmounts leaves its session here while it still holds edits or a save, so work carries on; a new
 * entry's session is filed under its id once created, and the created entry's screen takes it up.
 */
const sessions = new Map<string, EntrySession>();

export function sessionFor(collection: ContentCollection, key: string, entry: Entry | undefined): EntrySession {
  let session = sessions.get(key);
  if (!session || session.collection.slug !== collection.slug) {
    session?.dispose();
    session = new EntrySession(collection, entry);
    sessions.set(key, session);
  }
  return session;
}

/** A new entry's session, once created, is its entry's: the next "new" starts afresh. */
export function refile(from: string, to: string, session: EntrySession) {
  if (sessions.get(from) === session) sessions.delete(from);
  sessions.set(to, session);
}

/** A screen let go of its session: dropped when nothing is left in it, kept saving otherwise. */
export function release(key: string, session: EntrySession) {
  if (session.idle && sessions.get(key) === session) {
    sessions.delete(key);
    if (![...sessions.values()].includes(session)) session.dispose();
  }
}
