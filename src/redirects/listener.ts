import type { EntryChangeListener } from '../content/changes.ts';
import type { EntryRow } from '../content/store.ts';
import { isoNow } from '../core/clock.ts';
import { expandUrlPattern } from '../core/url-patterns.ts';
import { followEntryMove } from './chains.ts';
import { normalizePath } from './paths.ts';
import { markTargetMissing } from './store.ts';

/**
 * What redirects hear of entries (content/listeners.ts), for collections with a URL pattern (only
 * their entries have an address): a published entry whose slug changes leaves a redirect from its old
 * address; one that goes to the trash or is deleted flags the redirects leading to it, and one
 * restored from the trash clears the flag (docs/decisions/0057). Other changes cost nothing.
 */
export const followEntryAddress: EntryChangeListener = async (change, tx, ctx) => {
  const pattern = change.collection.urlPattern;
  if (pattern === undefined || change.kind === 'created') return;
  if (change.kind === 'deleted' || change.kind === 'trashed' || change.kind === 'restored') {
    await markTargetMissing(tx, change.collection.slug, change.entryId, change.kind !== 'restored');
    return;
  }
  const { entry } = change;
  if (change.previousSlug === entry._slug || change.previousStatus !== 'published' || entry._status !== 'published') return;
  const addressOf = (row: EntryRow, slug: string) => expandUrlPattern(pattern, { slug, id: row._id, locale: row._locale });
  const to = addressOf(entry, entry._slug);
  const fromPath = normalizePath(addressOf(entry, change.previousSlug))!;
  const toPath = normalizePath(to)!;
  if (fromPath === toPath) return;
  await followEntryMove(tx, { collection: change.collection.slug, entryId: entry._id, fromPath, to, toPath, now: isoNow(ctx.clock) });
};
