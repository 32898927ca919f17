import { creditsColumn } from '../../bylines/credits.ts';
import { isoNow } from '../../core/clock.ts';
import { firstFreeSlug, isUrlSafeSlug, slugify } from '../../core/slugs.ts';
import { validateEntryData } from '../../content/field-values.ts';
import * as contentStore from '../../content/store.ts';
import { newEntryRow, writeEntry } from '../../content/write.ts';
import type { Transaction } from '../../db/dialect.ts';
import { lockCollection } from '../../schema/lookup.ts';
import type { LoadedCollection } from '../../schema/store.ts';
import { addEntryTerms } from '../../taxonomies/store.ts';
import { metaFieldSlug, typedMetaValue } from '../wxr/normalize.ts';
import { itemRow, noteRow, type BatchOutput, type ImportRun } from './run-state.ts';
import type { NormalizedItem } from '../sources/types.ts';
import { writeComments } from './comments.ts';
import { recordOldAddresses } from './redirects.ts';
import { bylineFor, ensureTerm, linkTaxonomy } from './structure.ts';
import * as store from '../store.ts';
import { taxonomyTarget } from './taxonomy-names.ts';
import { importedSeo } from './seo.ts';
import { metaWithoutSeo } from '../sources/seo-keys.ts';
import { hasSeo } from '../../seo/values.ts';

/**
 * Writes one source item as an entry of its mapped collection, in the batch's transaction, through
 * the one write path (content/write.ts): status and dates as the source had them (DECISIONS §7),
 * its slug (renamed with a numeric suffix and a warning when taken), byline credits, terms, and a
 * checkpoint row naming what it became. Parents and featured images are linked in a later pass,
 * once every item exists.
 */

type EntryStatus = 'published' | 'scheduled' | 'draft';

/** DECISIONS §7: how source statuses map; undefined statuses are skipped and counted. */
const statusMap: Record<string, EntryStatus | undefined> = {
  publish: 'published',
  future: 'scheduled',
  draft: 'draft',
  pending: 'draft',
  private: 'draft',
};

export const skippedStatuses = new Set(['trash', 'auto-draft', 'inherit']);

async function collectionFor(batch: BatchOutput, tx: Transaction, slug: string): Promise<LoadedCollection> {
  let collection = batch.collections.get(slug);
  if (!collection) {
    collection = await lockCollection(tx, slug, 'share');
    batch.collections.set(slug, collection);
  }
  return collection;
}

/** The slug the entry gets: the source's, else one from its title; a taken one gets the first free suffix. */
async function entrySlug(run: ImportRun, batch: BatchOutput, tx: Transaction, collection: LoadedCollection, item: NormalizedItem): Promise<{ slug: string; renamedFrom?: string }> {
  const wanted = isUrlSafeSlug(item.slug) ? item.slug : slugify(item.slug) || slugify(item.title) || `${slugify(item.postType) || 'item'}-${item.sourceId}`;
  const used = batch.slugs.get(collection.slug) ?? new Set<string>();
  batch.slugs.set(collection.slug, used);
  const reserved = wanted === 'trash';
  // The batch looked up the slugs its items name as they are; a slug made here is looked up alone.
  const known = wanted === item.slug ? batch.takenSlugs.get(collection.slug) : undefined;
  const taken = reserved || used.has(wanted) || (known ? known.has(wanted) : (await contentStore.slugsTaken(tx, collection.tableName, [wanted], run.locale)).length > 0);
  if (!taken) {
    used.add(wanted);
    return { slug: wanted };
  }
  const existing = new Set([...(await contentStore.slugsStartingWith(tx, collection.tableName, wanted, run.locale)), ...used, 'trash']);
  const slug = firstFreeSlug(wanted, existing);
  used.add(slug);
  return { slug, renamedFrom: wanted };
}

/** Field values of the item: the import's fields, custom fields with a field of their own, the rest of the meta as JSON. */
function itemValues(collection: LoadedCollection, item: NormalizedItem): Record<string, unknown> {
  const has = (slug: string) => collection.fields.some((field) => field.slug === slug);
  const values: Record<string, unknown> = {};
  if (has('title')) values.title = item.title;
  if (has('content')) values.content = item.content;
  if (has('excerpt') && item.excerpt !== undefined) values.excerpt = item.excerpt;
  if (has('menu_order') && item.menuOrder !== undefined) values.menu_order = item.menuOrder;
  if (has('sticky') && item.sticky) values.sticky = true;
  const rest: Record<string, unknown> = {};
  // The SEO plugins' keys become the entry's SEO values where the collection has them (./seo.ts).
  for (const [key, value] of Object.entries(hasSeo(collection) ? metaWithoutSeo(item.meta) : item.meta)) {
    const field = metaFieldSlug(key) === key ? collection.fields.find((candidate) => candidate.slug === key) : undefined;
    if (field) values[key] = typedMetaValue(field.type, value);
    else rest[key] = value;
  }
  if (has('meta') && Object.keys(rest).length > 0) values.meta = rest;
  return values;
}

export async function writeItem(run: ImportRun, batch: BatchOutput, tx: Transaction, item: NormalizedItem): Promise<void> {
  const title = item.title || null;
  const status = statusMap[item.status];
  if (status === undefined) {
    batch.notes.push(noteRow(run, 'skipped', item.sourceId, title, `status ${item.status} is not imported`));
    return;
  }
  const collectionSlug = run.mappings[item.postType];
  if (collectionSlug === undefined) {
    batch.notes.push(noteRow(run, 'skipped', item.sourceId, title, `post type ${item.postType} is not mapped to a collection`));
    return;
  }
  const collection = await collectionFor(batch, tx, collectionSlug);
  let values = itemValues(collection, item);
  let failure = item.failure;
  const checked = validateEntryData(collection.fields, values, 'create');
  if (!failure && checked.issues.length > 0) {
    failure = { cause: checked.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '), original: '' };
  }
  // A scheduled item with no date has no time to be published at: it waits as a draft. A protected
  // one is read only with its password, which Folio does not have: it stays out of public reads.
  let entryStatus: EntryStatus = (status === 'scheduled' && item.date === undefined) || item.passwordProtected ? 'draft' : status;
  if (failure) {
    // import.md §2 rule 7: saved as a draft, with what could not be imported kept beside it.
    entryStatus = 'draft';
    values = { ...(collection.fields.some((field) => field.slug === 'title') ? { title: item.title } : {}), meta: { ...item.meta, _importError: { cause: failure.cause, content: failure.original || undefined, values: failure.original ? undefined : values } } };
    batch.notes.push(noteRow(run, 'failed', item.sourceId, title, failure.cause));
  } else {
    values = checked.values;
  }
  const { slug, renamedFrom } = await entrySlug(run, batch, tx, collection, item);
  if (renamedFrom !== undefined) batch.notes.push(noteRow(run, 'warning', item.sourceId, title, `slug ${renamedFrom} was taken in ${collection.slug}; renamed to ${slug}`));
  if (item.passwordProtected && status !== 'draft') batch.notes.push(noteRow(run, 'warning', item.sourceId, title, 'password-protected in the source: imported as a draft, so it is not public (the password is not kept)'));
  if (item.status === 'private') batch.notes.push(noteRow(run, 'warning', item.sourceId, title, 'private in the source: imported as a draft'));
  if (item.date === undefined) {
    batch.notes.push(noteRow(run, 'warning', item.sourceId, title, status === 'scheduled' ? 'no date in the source: dated at the import, and imported as a draft rather than scheduled' : 'no date in the source: dated at the import'));
  }
  const seo = importedSeo(collection, item);
  for (const warning of [...item.warnings, ...seo.warnings]) batch.notes.push(noteRow(run, 'warning', item.sourceId, title, warning));

  const row = newEntryRow(run.ctx, collection, { slug, locale: run.locale, published: false, values });
  // An item the source gives no date keeps the row's own: the time of the import.
  const date = item.date ?? row._created_at;
  const modified = item.modified ?? date;
  Object.assign(row, {
    _status: entryStatus,
    _created_at: date,
    _updated_at: modified > date ? modified : date,
    _published_at: entryStatus === 'published' ? date : null,
    _scheduled_at: entryStatus === 'scheduled' ? date : null,
    _author_id: (item.author !== undefined ? run.authorMapping[item.author] : undefined) ?? run.createdBy,
    _bylines: creditsColumn(await credits(run, batch, tx, item)),
    _seo: seo.column,
  });
  await writeEntry(run.ctx, tx, collection, { kind: 'created', row, revision: true, scheduledBy: run.createdBy });
  await writeComments(run, tx, collection, row._id, item.comments);
  await recordOldAddresses(run, batch, tx, collection, row, item);
  if (run.options.includeTaxonomies) await assignTerms(run, tx, collection, row._id, item);
  const links = {
    ...(item.parent !== undefined ? { parent: item.parent } : {}),
    ...(item.featuredImage !== undefined ? { featuredImage: item.featuredImage } : {}),
    ...(!failure && JSON.stringify(item.content).includes('"_type":"reusableBlock"') ? { reusableBlocks: true } : {}),
  };
  batch.items.push(itemRow(run, 'post', item.sourceId, row._id, { collection: collection.slug, data: Object.keys(links).length > 0 ? links : undefined }));
}

/** The item's byline ids in credit order; an author the export did not list gets a guest byline now. */
async function credits(run: ImportRun, batch: BatchOutput, tx: Transaction, item: NormalizedItem): Promise<string[]> {
  const ids: string[] = [];
  for (const login of item.authors) {
    let id = run.bylines.get(login);
    if (id === undefined) {
      id = await bylineFor(run, tx, { sourceId: login, login, displayName: login });
      run.bylines.set(login, id);
      batch.items.push(itemRow(run, 'author', login, id));
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** The item's terms, by taxonomy; a term the export did not declare is made now. */
async function assignTerms(run: ImportRun, tx: Transaction, collection: LoadedCollection, entryId: string, item: NormalizedItem): Promise<void> {
  const terms = new Map<string, { termId: string; taxonomyId: string }>();
  for (const term of item.terms) {
    if (term.slug === '') continue;
    const key = `${term.taxonomy}:${term.slug}`;
    let termId = run.terms.get(key);
    if (termId === undefined) {
      termId = await ensureTerm(run, tx, { sourceId: term.slug, taxonomy: term.taxonomy, slug: term.slug, name: term.name || term.slug });
      run.terms.set(key, termId);
      await store.insertImportItems(tx, [itemRow(run, `term:${term.taxonomy}`, term.slug, termId)]);
    }
    await linkTaxonomy(run, tx, term.taxonomy, collection);
    terms.set(termId, { termId, taxonomyId: run.taxonomies.get(taxonomyTarget(term.taxonomy))!.id });
  }
  await addEntryTerms(tx, { id: entryId, collectionId: collection.id }, [...terms.values()], isoNow(run.ctx.clock));
}
