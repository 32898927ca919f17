/** Collections and fields as the domain sees them (the wire shapes are in schemas.ts). */

export const fieldTypes = [
  'string',
  'text',
  'number',
  'integer',
  'boolean',
  'datetime',
  'select',
  'multiSelect',
  'portableText',
  'image',
  'file',
  'reference',
  'json',
  'slug',
] as const;

export type FieldType = (typeof fieldTypes)[number];

/** Types whose values order meaningfully and get an index, so lists sorted by them stay fast. */
export const sortableFieldTypes: readonly FieldType[] = ['string', 'number', 'integer', 'boolean', 'datetime', 'select', 'slug'];

export const collectionFeatures = ['drafts', 'revisions', 'preview', 'scheduling', 'search'] as const;
export type CollectionFeature = (typeof collectionFeatures)[number];

export interface FieldValidation {
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /** Allowed values of `select` and `multiSelect`. */
  options?: string[];
}

export interface FieldOptions {
  /** Target collection slug of a `reference` field. */
  collection?: string;
  /** Suggested textarea height of a `text` field. */
  rows?: number;
}

export interface FieldDefinition {
  id: string;
  slug: string;
  label: string;
  type: FieldType;
  required: boolean;
  unique: boolean;
  defaultValue?: unknown;
  validation: FieldValidation;
  options: FieldOptions;
  searchable: boolean;
  translatable: boolean;
  sortOrder: number;
  createdAt: string;
  updatedAt: string;
}

export interface CollectionDefinition {
  id: string;
  slug: string;
  label: string;
  labelSingular?: string;
  description?: string;
  icon?: string;
  supports: CollectionFeature[];
  createdAt: string;
  updatedAt: string;
}

/** A collection with its fields in display order: what content operations work from. */
export interface CollectionSchema extends CollectionDefinition {
  fields: FieldDefinition[];
}
