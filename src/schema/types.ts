import type { FieldDefinition } from '../fields/definition.ts';

/** Collections and fields as the domain sees them (the wire shapes are in schemas.ts). */

// Field types are registered in src/fields/; their names go with the definitions that use them.
export { fieldTypes, type FieldType } from '../fields/names.ts';

/**
 * The most fields a collection may have (docs/decisions/0009-column-limits.md). Far below both engines'
 * column limits (PostgreSQL 1,600, SQLite 2,000), and low enough that an entry with every field filled
 * still fits the single 8 KB page a PostgreSQL row must fit in: a short text value stays in the row
 * at up to 24 bytes, so 300 of them plus the system columns stay under the 8,160 bytes allowed.
 */
export const maxFieldsPerCollection = 300;

export const collectionFeatures = ['drafts', 'revisions', 'preview', 'scheduling', 'search', 'seo'] as const;
export type CollectionFeature = (typeof collectionFeatures)[number];

export const commentModerations = ['all', 'first-time', 'none'] as const;

/** A collection's comment settings: `first-time` holds a commenter with no approved comment yet. */
export interface CommentSettings {
  enabled: boolean;
  moderation: (typeof commentModerations)[number];
  /** Comments close this many days after the entry was published; null: never. */
  closeAfterDays: number | null;
}

export interface CollectionDefinition {
  id: string;
  slug: string;
  label: string;
  labelSingular?: string;
  description?: string;
  icon?: string;
  supports: CollectionFeature[];
  /** Where entries are served on the site (`/blog/{slug}`); menu items follow it. */
  urlPattern?: string;
  /** Whether and how its entries take comments (src/comments/, decisions/0058); absent: no comments. */
  comments?: CommentSettings;
  createdAt: string;
  updatedAt: string;
}

/** A collection with its fields in display order: what content operations work from. */
export interface CollectionSchema extends CollectionDefinition {
  fields: FieldDefinition[];
}
