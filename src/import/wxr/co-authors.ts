import type { Readable } from 'node:stream';
import type { NormalizedAuthor } from '../sources/types.ts';
import { firstMetaValues, metaByKey } from './normalize.ts';
import { readWxr } from './reader.ts';
import type { WxrItem } from './records.ts';

/**
 * Co-Authors Plus (issue 34): it credits an item's authors as terms of an `author` taxonomy (the
 * term's name is the author's login), and keeps guest authors as items of the `guest-author` post
 * type. Both are bylines in Folio, never a taxonomy or entries.
 */

export const coAuthorTaxonomy = 'author';
export const guestAuthorType = 'guest-author';
export const guestAuthorReason = 'Co-Authors Plus guest author: imported as a byline';

/** The logins an item credits, lead first: its Co-Authors Plus authors, else its `dc:creator`. */
export function creditedLogins(item: WxrItem): string[] {
  const coAuthors = item.terms.filter((term) => term.taxonomy === coAuthorTaxonomy).map((term) => term.name || term.slug);
  return coAuthors.length > 0 ? coAuthors : item.creators;
}

/** A guest author item as the author its co-author terms name (by its login; its post name is `cap-` and the login's nicename). */
function guestAuthorOf(item: WxrItem): NormalizedAuthor | undefined {
  const meta = firstMetaValues(metaByKey(item.meta));
  const login = (meta.get('cap-user_login') ?? item.slug.replace(/^cap-/, '')).trim();
  if (login === '') return undefined;
  const email = meta.get('cap-user_email')?.trim();
  return { sourceId: login, login, displayName: meta.get('cap-display_name')?.trim() || item.title || login, ...(email ? { email } : {}) };
}

/**
 * The export's guest authors whose logins no source author has (a source author is credited as
 * themselves). Guest authors may come after the posts crediting them, and bylines are made before
 * any item is written, so the file is read once more for them, without converting any content.
 */
export async function guestAuthors(file: Readable, sourceLogins: ReadonlySet<string>): Promise<NormalizedAuthor[]> {
  const guests = new Map<string, NormalizedAuthor>();
  for await (const record of readWxr(file)) {
    if (record.kind !== 'item' || record.item.postType !== guestAuthorType) continue;
    const guest = guestAuthorOf(record.item);
    if (guest && !sourceLogins.has(guest.login) && !guests.has(guest.login)) guests.set(guest.login, guest);
  }
  return [...guests.values()];
}
