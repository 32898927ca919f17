import { expandUrlPattern } from '../core/url-patterns.ts';
import { readDuringSchemaChange } from '../content/lookup.ts';
import { entryLinks, type EntryLinkRow } from '../content/store.ts';
import type { Db } from '../db/connection.ts';
import { readSettings } from '../settings/read.ts';
import * as store from './store.ts';

/**
 * What menu items link to, resolved when the menu is read (docs/decisions/0018): an entry's or a
 * term's current slug and URL, an entry's status, or that the target is gone. A menu costs one
 * statement for the collections it names, one per collection for their entries and one for its
 * terms, however many items it has.
 */

/** The item kinds besides entries, whose `type` is their collection's slug. */
const termType = 'taxonomy';
export const customType = 'custom';

type LinkKind = 'entry' | 'term' | 'custom';

export function linkKind(type: string): LinkKind {
  if (type === customType) return 'custom';
  return type === termType ? 'term' : 'entry';
}

type EntryLinkStatus = 'draft' | 'published' | 'scheduled' | 'trashed';

export interface Link {
  slug: string | null;
  url: string | null;
  /** Entries: their status, `trashed` for one in the trash. */
  status?: EntryLinkStatus;
  /** The entry, term, collection or taxonomy no longer exists. */
  missing?: true;
  /** Whether callers who see only published content see the item: custom links, existing terms, live entries. */
  public: boolean;
}

const missingLink: Link = { slug: null, url: null, missing: true, public: false };

/** The link of every item given, by item id. */
export async function resolveLinks(db: Db, items: readonly store.MenuItemRow[]): Promise<Map<string, Link>> {
  const links = new Map<string, Link>();
  const entryItems = items.filter((item) => linkKind(item.type) === 'entry');
  const termItems = items.filter((item) => linkKind(item.type) === 'term');
  for (const item of items) {
    if (linkKind(item.type) === 'custom') links.set(item.id, { slug: null, url: item.url, public: true });
  }
  for (const [id, link] of await resolveEntryLinks(db, entryItems)) links.set(id, link);
  for (const [id, link] of await resolveTermLinks(db, termItems)) links.set(id, link);
  return links;
}

async function resolveEntryLinks(db: Db, items: store.MenuItemRow[]): Promise<Map<string, Link>> {
  const links = new Map<string, Link>();
  const collections = await store.findCollections(db, distinct(items.map((item) => item.reference_collection!)));
  for (const collection of collections) {
    const named = items.filter((item) => item.reference_collection === collection.slug);
    // A collection deleted since the statement above is a conflict the client may retry, as for content reads.
    const rows = await readDuringSchemaChange(() => entryLinks(db, collection.table_name, distinct(named.map((item) => item.reference_id!))));
    const byId = new Map(rows.map((row) => [row._id, row]));
    for (const item of named) {
      const entry = byId.get(item.reference_id!);
      if (entry) links.set(item.id, entryLink(entry, collection.url_pattern));
    }
  }
  for (const item of items) if (!links.has(item.id)) links.set(item.id, missingLink);
  return links;
}

function entryLink(entry: EntryLinkRow, pattern: string | null): Link {
  const trashed = entry._deleted_at !== null;
  return {
    slug: entry._slug,
    url: pattern === null ? null : expandUrlPattern(pattern, { slug: entry._slug, id: entry._id, locale: entry._locale }),
    status: trashed ? 'trashed' : entry._status,
    public: !trashed && entry._published_at !== null,
  };
}

async function resolveTermLinks(db: Db, items: store.MenuItemRow[]): Promise<Map<string, Link>> {
  const terms = await store.findTermLinks(db, distinct(items.map((item) => item.reference_id!)));
  const byId = new Map(terms.map((term) => [term.id, term]));
  // Terms have no locale of their own: their pages are in the site's default one.
  const locale = terms.some((term) => term.url_pattern?.includes('{locale}')) ? (await readSettings(db)).defaultLocale : '';
  return new Map(
    items.map((item) => {
      const term = byId.get(item.reference_id!);
      // A taxonomy deleted and made again under the same name has new terms: the old id is missing.
      if (!term || term.taxonomy !== item.reference_collection) return [item.id, missingLink];
      const url = term.url_pattern === null ? null : expandUrlPattern(term.url_pattern, { slug: term.slug, id: term.id, locale });
      return [item.id, { slug: term.slug, url, public: true }];
    }),
  );
}

function distinct(values: string[]): string[] {
  return [...new Set(values)];
}
