import type { z } from 'zod';
import type { ValidationIssue } from '../core/errors.ts';
import { mediaReference, type StoredMediaReference } from '../fields/types/media-reference.ts';
import type { CollectionFeature } from '../schema/types.ts';
import type { SeoInput, SeoSchema } from './schemas.ts';

/**
 * An entry's SEO values as the `_seo` column, the `_live` snapshot and a revision keep them: only
 * the members that are set (docs/decisions/0059-seo-fields.md).
 */
export interface StoredSeo {
  title?: string;
  description?: string;
  canonical?: string;
  noIndex?: true;
  image?: StoredMediaReference;
}

export type Seo = z.infer<typeof SeoSchema>;

/** The key the SEO values take in a `_live` snapshot and a revision's data: no field slug starts with `_`. */
export const seoKey = '_seo';

/** Whether a collection has SEO values. */
export function hasSeo(collection: { supports: readonly CollectionFeature[] }): boolean {
  return collection.supports.includes('seo');
}

/** The stored values from a column (JSON text) or from a snapshot (already parsed); none when absent. */
export function storedSeo(stored: unknown): StoredSeo {
  const value: unknown = typeof stored === 'string' ? JSON.parse(stored) : stored;
  return typeof value === 'object' && value !== null ? (value as StoredSeo) : {};
}

/** The `_seo` column for stored values: null when none is set, so an entry without SEO costs nothing. */
export function seoColumn(seo: StoredSeo): string | null {
  return Object.keys(seo).length === 0 ? null : JSON.stringify(seo);
}

/** What a snapshot of the row keeps besides its field values (the `_live` copy, a revision). */
export function seoSnapshot(column: unknown): Record<string, StoredSeo> {
  return typeof column === 'string' ? { [seoKey]: storedSeo(column) } : {};
}

/** Stored values as an entry shows them: every member, null (false) when unset. */
export function seoOut(seo: StoredSeo): Seo {
  return {
    title: seo.title ?? null,
    description: seo.description ?? null,
    canonical: seo.canonical ?? null,
    noIndex: seo.noIndex ?? false,
    image: seo.image ? { ...seo.image } : null,
  };
}

/**
 * Given values over stored ones, as a partial update of an entry merges them: given members replace,
 * null or empty text clears, members left out stay. The image is checked as an image field's value.
 * A collection without `seo` support takes none.
 */
export function mergeSeo(collection: { slug: string; supports: readonly CollectionFeature[] }, current: StoredSeo, given: z.output<typeof SeoInput> | undefined): { seo: StoredSeo; issues: ValidationIssue[] } {
  if (given === undefined) return { seo: current, issues: [] };
  if (!hasSeo(collection)) return { seo: current, issues: [{ path: 'seo', message: `Collection ${collection.slug} has no SEO values (its supports has no "seo")` }] };
  const seo: StoredSeo = { ...current };
  const issues: ValidationIssue[] = [];
  for (const key of ['title', 'description', 'canonical'] as const) {
    const value = given[key];
    if (value === null || value === '') delete seo[key];
    else if (value !== undefined) seo[key] = value;
  }
  if (given.noIndex === true) seo.noIndex = true;
  else if (given.noIndex !== undefined) delete seo.noIndex;
  if (given.image === null || given.image === '') delete seo.image;
  else if (given.image !== undefined) {
    const checked = mediaReference.check(given.image, {});
    if (checked.ok) seo.image = checked.value as StoredMediaReference;
    else issues.push({ path: 'seo.image', message: checked.message });
  }
  return { seo, issues };
}
