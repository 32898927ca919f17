import type { z } from 'zod';
import { validationError } from '../core/errors.ts';
import { runOperation, type AuthorizedContext } from '../core/operation.ts';
import type { Db } from '../db/connection.ts';
import { createCollection, createField, updateCollection } from '../schema/operations.ts';
import { loadCollection, type LoadedCollection } from '../schema/store.ts';
import type { CollectionFeature } from '../schema/types.ts';
import { requireAnalysis, summaryOf } from './analysis.ts';
import { compatibility, wantedFields } from './fields.ts';
import type { PrepareBody } from './schemas.ts';
import type { PostTypeAnalysis } from './sources/types.ts';

/** What a post type needs when no analysis says more: pages are a hierarchy with a menu order. */
function assumedShape(name: string): PostTypeAnalysis {
  const page = name === 'page';
  return { name, count: 0, hierarchical: page, hasMenuOrder: page, hasSticky: name === 'post', comments: 0, metaFields: [] };
}

function label(name: string): string {
  const words = name.replace(/[_-]+/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export interface PreparedType {
  postType: string;
  collection: string;
  created: boolean;
  fieldsAdded: string[];
}

/** What a collection that takes imported comments gets: comments on, a first-time commenter held for an editor, never closed. */
const importedComments = { enabled: true, moderation: 'first-time', closeAfterDays: null } as const;

/** The target collections by slug, as they stand (undefined: none yet); read once and handed along. */
export type TargetCollections = Map<string, LoadedCollection | undefined>;

/** Reads each target collection once, however many post types go to it. */
export async function readTargets(db: Db, slugs: Iterable<string>): Promise<TargetCollections> {
  const targets: TargetCollections = new Map();
  for (const slug of slugs) if (!targets.has(slug)) targets.set(slug, await loadCollection(db, slug));
  return targets;
}

/**
 * Makes the collections of the mapping fit their post types: a missing collection is created, missing
 * fields are added (import.md §3 `new_collection`, `add_fields`); a field of a conflicting type is a
 * 400 naming it, before anything is changed. Each change goes through the schema operations.
 * `targets` are the mapping's collections as the caller read them (start has checked them already),
 * kept up to date here as they change.
 */
export async function prepareCollections(ctx: AuthorizedContext, mappings: { postType: PostTypeAnalysis; collection: string }[], targets: TargetCollections): Promise<PreparedType[]> {
  // Every conflict is found before anything changes.
  for (const { postType, collection } of mappings) {
    const fit = compatibility(targets.get(collection), wantedFields(postType, collection));
    if (fit.status === 'incompatible') {
      throw validationError(
        fit.conflicts.map((conflict) => ({ path: `postTypes.${postType.name}`, message: `Collection ${collection} has field ${conflict.field} of type ${conflict.existingType}; the import needs ${conflict.wantedType}` })),
      );
    }
  }
  // Then each type in turn, against the collection as the types before it left it (several may share one).
  const prepared: PreparedType[] = [];
  for (const { postType, collection } of mappings) {
    const existing = targets.get(collection);
    const fit = compatibility(existing, wantedFields(postType, collection));
    // Comments come with their entries: a collection that has none takes them, as the source site did.
    const takeComments = postType.comments > 0 && !existing?.comments;
    // Items with Yoast or Rank Math meta need the entries' SEO values (import/job/seo.ts).
    const seo: CollectionFeature[] = postType.hasSeo ? ['seo'] : [];
    const addSeo = existing !== undefined && seo.length > 0 && !existing.supports.includes('seo');
    if (!existing) {
      const supports: CollectionFeature[] = ['drafts', 'revisions', 'scheduling', 'search', ...seo];
      await runOperation(createCollection, ctx, () => ({ slug: collection, label: label(collection), labelSingular: label(postType.name), supports, ...(takeComments ? { comments: importedComments } : {}) }));
    } else if (takeComments || addSeo) {
      await runOperation(updateCollection, ctx, () => ({ slug: collection, ...(takeComments ? { comments: importedComments } : {}), ...(addSeo ? { supports: [...existing.supports, ...seo] } : {}) }));
    }
    const added: string[] = [];
    for (const field of fit.fieldsToAdd) {
      await runOperation(createField, ctx, () => ({
        collection,
        slug: field.slug,
        label: field.label,
        type: field.type,
        ...(field.options ? { options: field.options } : {}),
        ...(field.searchable ? { searchable: true } : {}),
      }));
      added.push(field.slug);
    }
    if (!existing || takeComments || addSeo || added.length > 0) targets.set(collection, await loadCollection(ctx.db, collection));
    prepared.push({ postType: postType.name, collection, created: !existing, fieldsAdded: added });
  }
  return prepared;
}

/** The post types of a prepare request with their shapes: from the analysis when one is named. */
export async function preparePostTypes(ctx: AuthorizedContext, input: z.output<typeof PrepareBody>): Promise<PreparedType[]> {
  const analysed = input.analysisId === undefined ? [] : summaryOf(await requireAnalysis(ctx, input.analysisId)).postTypes;
  const mappings = input.postTypes
    .filter((postType) => postType.enabled)
    .map((postType) => ({ postType: analysed.find((known) => known.name === postType.name) ?? assumedShape(postType.name), collection: postType.collection }));
  const slugs = mappings.map((mapping) => mapping.collection);
  checkCollectionSlugs(slugs);
  return prepareCollections(ctx, mappings, await readTargets(ctx.db, slugs));
}

/** Target collection slugs must be valid collection slugs (DECISIONS §4). */
export function checkCollectionSlugs(slugs: string[]): void {
  const issues = slugs.flatMap((slug, index) => (/^[a-z][a-z0-9_]{0,62}$/.test(slug) ? [] : [{ path: `postTypes.${index}.collection`, message: 'Must match ^[a-z][a-z0-9_]*$' }]));
  if (issues.length > 0) throw validationError(issues);
}
