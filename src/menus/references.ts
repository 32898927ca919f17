import { validationError, type ValidationIssue } from '../core/errors.ts';
import { liveData } from '../content/entries.ts';
import { portableTextToPlainText } from '../content/portable-text.ts';
import * as contentStore from '../content/store.ts';
import type { PortableTextBlock } from '../content/value-types.ts';
import type { Db } from '../db/connection.ts';
import * as schemaStore from '../schema/store.ts';
import * as taxonomyStore from '../taxonomies/store.ts';
import { customType, linkKind } from './links.ts';

/**
 * What an item being written links to, checked (docs/decisions/0018): an entry item's `type` is
 * `page`, `post` or its collection's slug, and `referenceCollection` names the collection; the entry or term must exist (an entry
 * outside the trash); a custom link has a URL and no reference. References are stored by id.
 */

/**
 * The kinds of entry WordPress names, usable as an item's `type` with `referenceCollection` naming
 * the collection: a moved site's `page` items work whatever its pages' collection is called.
 */
const entryKinds = new Set(['page', 'post']);

export interface LinkInput {
  type: string;
  referenceCollection: string | null;
  referenceId: string | null;
  url: string | null;
}

export interface CheckedLink {
  type: string;
  reference_collection: string | null;
  reference_id: string | null;
  url: string | null;
  /** The entry's title (else its slug) or the term's label: the item's label when none is given. */
  title: string | undefined;
}

export async function checkLink(db: Db, link: LinkInput): Promise<CheckedLink> {
  const kind = linkKind(link.type);
  if (kind === 'custom') {
    throwIfAny([
      ...(link.url === null ? [{ path: 'url', message: 'A custom link needs a url' }] : []),
      ...referenceFields(link).map((path) => ({ path, message: 'A custom link refers to no entry or term' })),
    ]);
    return { type: customType, reference_collection: null, reference_id: null, url: link.url, title: undefined };
  }
  const what = kind === 'term' ? 'a term' : 'an entry';
  throwIfAny([
    ...(link.url !== null ? [{ path: 'url', message: `A link to ${what} takes its URL from the target's URL pattern; only custom links have a url` }] : []),
    ...(link.referenceCollection === null ? [{ path: 'referenceCollection', message: `A link to ${what} needs referenceCollection` }] : []),
    ...(link.referenceId === null ? [{ path: 'referenceId', message: `A link to ${what} needs referenceId (an id or a slug)` }] : []),
  ]);
  const reference = { collection: link.referenceCollection!, id: link.referenceId! };
  return kind === 'term' ? checkTerm(db, reference) : checkEntry(db, link.type, reference);
}

function referenceFields(link: LinkInput): string[] {
  return [...(link.referenceCollection !== null ? ['referenceCollection'] : []), ...(link.referenceId !== null ? ['referenceId'] : [])];
}

function throwIfAny(issues: ValidationIssue[]): void {
  if (issues.length > 0) throw validationError(issues);
}

async function checkTerm(db: Db, reference: { collection: string; id: string }): Promise<CheckedLink> {
  const taxonomy = await taxonomyStore.findTaxonomy(db, reference.collection);
  if (!taxonomy) throw validationError([{ path: 'referenceCollection', message: `No taxonomy ${reference.collection}` }]);
  const [byId] = await taxonomyStore.findTermsByIds(db, [reference.id]);
  const term = byId?.taxonomy_id === taxonomy.id ? byId : await taxonomyStore.findTermBySlug(db, taxonomy.id, reference.id);
  if (!term) throw validationError([{ path: 'referenceId', message: `No term ${reference.id} in ${taxonomy.name}` }]);
  return { type: 'taxonomy', reference_collection: taxonomy.name, reference_id: term.id, url: null, title: term.label };
}

async function checkEntry(db: Db, type: string, reference: { collection: string; id: string }): Promise<CheckedLink> {
  const kindOnly = entryKinds.has(type);
  if (!kindOnly && reference.collection !== type) {
    const known = (await schemaStore.loadCollection(db, type)) !== undefined;
    if (!known) throw validationError([{ path: 'type', message: `Unknown type ${type}: "page", "post", a collection slug, "taxonomy" or "custom"` }]);
    throw validationError([{ path: 'referenceCollection', message: `An entry item whose type is the collection slug ${type} refers to that collection` }]);
  }
  const collection = await schemaStore.loadCollection(db, reference.collection);
  if (!collection) {
    throw validationError([{ path: kindOnly ? 'referenceCollection' : 'type', message: `No collection ${reference.collection}` }]);
  }
  const byId = await contentStore.findEntryById(db, collection.tableName, reference.id);
  const entry = byId && byId._deleted_at === null ? byId : await contentStore.findEntryBySlug(db, collection.tableName, reference.id, undefined);
  if (!entry) throw validationError([{ path: 'referenceId', message: `No entry ${reference.id} in ${type}` }]);
  return { type, reference_collection: collection.slug, reference_id: entry._id, url: null, title: entryTitle(liveData(collection.fields, entry)) ?? entry._slug };
}

/** The title visitors see (the live values while a draft is staged): `title`, else `name`, as plain text. */
function entryTitle(data: Record<string, unknown>): string | undefined {
  for (const value of [data.title, data.name]) {
    const text = Array.isArray(value) ? portableTextToPlainText(value as PortableTextBlock[]) : value;
    // Labels are at most 200 characters; a longer title is cut.
    if (typeof text === 'string' && text.trim() !== '') return text.trim().slice(0, 200);
  }
  return undefined;
}
