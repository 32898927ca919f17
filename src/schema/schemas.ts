import { z } from 'zod';
import { BooleanQuery } from '../core/schemas.ts';
import { UrlPattern } from '../core/url-patterns.ts';
import { collectionFeatures, commentModerations, fieldTypes, maxFieldsPerCollection } from './types.ts';

/** Collection and field slugs (DECISIONS §4): a letter, then letters, digits and `_`; at most 63. */
export const SchemaSlug = z
  .string()
  .max(63, 'At most 63 characters')
  .regex(/^[a-z][a-z0-9_]*$/, 'Must match ^[a-z][a-z0-9_]*$ (a lower-case letter, then lower-case letters, digits or _)');

/** A slug in a path: any text, so an unknown one is a 404 rather than a pattern error. */
export const SlugParam = z.string().min(1).max(200);

const Label = z.string().trim().min(1).max(200);
const Description = z.string().max(2000);
const Icon = z.string().max(100);
const Supports = z.array(z.enum(collectionFeatures)).max(collectionFeatures.length).refine((list) => new Set(list).size === list.length, 'Must not repeat a feature');

export const CommentSettingsSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    moderation: z.enum(commentModerations).default('first-time').describe('all: every comment waits; first-time: a commenter (by email) with no approved comment waits; none'),
    closeAfterDays: z.number().int().min(1).max(36500).nullable().default(null).describe('Comments close this many days after publishing; null: never'),
  })
  .meta({ id: 'CommentSettings' });

export const CreateCollectionBody = z.strictObject({
  slug: SchemaSlug,
  label: Label.describe('Plural display name'),
  labelSingular: Label.optional(),
  description: Description.optional(),
  icon: Icon.optional(),
  supports: Supports.optional().describe('Default: drafts, revisions'),
  urlPattern: UrlPattern.nullable().optional(),
  comments: CommentSettingsSchema.nullable().optional(),
});

export const UpdateCollectionBody = z.strictObject({
  label: Label.optional(),
  labelSingular: Label.nullable().optional(),
  description: Description.nullable().optional(),
  icon: Icon.nullable().optional(),
  supports: Supports.optional(),
  urlPattern: UrlPattern.nullable().optional(),
  comments: CommentSettingsSchema.nullable().optional(),
});

const FieldValidationSchema = z.strictObject({
  min: z.number().finite().optional(),
  max: z.number().finite().optional(),
  minLength: z.number().int().min(0).optional(),
  maxLength: z.number().int().min(0).optional(),
  pattern: z
    .string()
    .max(1000)
    .optional()
    .describe('RE2 syntax, matched anywhere in the value unless anchored with ^…$; no lookaround or backreferences; inline flags such as (?i)'),
  options: z.array(z.string().min(1).max(200)).max(500).optional(),
});

const FieldOptionsSchema = z.strictObject({
  collection: z.string().min(1).max(63).optional().describe('Target collection of a reference field'),
  rows: z.number().int().min(1).max(100).optional().describe('Textarea height of a text field'),
});

const fieldBody = {
  label: Label,
  type: z.enum(fieldTypes),
  required: z.boolean().optional(),
  unique: z.boolean().optional(),
  defaultValue: z.unknown().optional(),
  validation: FieldValidationSchema.optional(),
  options: FieldOptionsSchema.optional(),
  searchable: z.boolean().optional().describe('Include in the full-text index'),
  translatable: z.boolean().optional().describe('Default true; false shares the value across translations'),
};

export const CreateFieldBody = z.strictObject({ slug: SchemaSlug, ...fieldBody });

export const UpdateFieldBody = z.strictObject({
  label: fieldBody.label.optional(),
  type: fieldBody.type.optional(),
  required: fieldBody.required,
  unique: fieldBody.unique,
  defaultValue: z.unknown().optional().describe('null removes the default'),
  validation: FieldValidationSchema.optional(),
  options: FieldOptionsSchema.optional(),
  searchable: fieldBody.searchable,
  translatable: fieldBody.translatable,
});

export const ReorderFieldsBody = z.strictObject({
  fieldSlugs: z.array(z.string().min(1).max(63)).max(maxFieldsPerCollection).describe('Every field slug of the collection, in the new order'),
});

export const CollectionParams = z.object({ slug: SlugParam });
export const FieldParams = z.object({ collectionSlug: SlugParam, fieldSlug: SlugParam });

export const GetCollectionQuery = z.object({
  includeFields: BooleanQuery.optional(),
  counts: BooleanQuery.optional().describe('Count the entries and, with includeFields, the values of each field: what a deletion would destroy (a pass over the entries)'),
});
export const DeleteCollectionQuery = z.object({ force: BooleanQuery.optional().describe('Delete even if the collection has content') });
export const SchemaExportQuery = z.object({ format: z.enum(['json', 'typescript']).optional() });

export const FieldSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    label: z.string(),
    type: z.enum(fieldTypes),
    required: z.boolean(),
    unique: z.boolean(),
    defaultValue: z.unknown().optional(),
    validation: FieldValidationSchema,
    options: FieldOptionsSchema,
    searchable: z.boolean(),
    translatable: z.boolean(),
    sortOrder: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
    values: z.number().int().optional().describe('With counts=true: the entries holding a value in this field (drafts and the trash too)'),
  })
  .meta({ id: 'Field' });

export const CollectionSchemaOut = z
  .object({
    id: z.string(),
    slug: z.string(),
    label: z.string(),
    labelSingular: z.string().optional(),
    description: z.string().optional(),
    icon: z.string().optional(),
    supports: z.array(z.enum(collectionFeatures)),
    urlPattern: z.string().optional().describe('Where entries are served, e.g. /blog/{slug}; absent: no URL'),
    comments: CommentSettingsSchema.optional().describe('Absent: no comments'),
    createdAt: z.string(),
    updatedAt: z.string(),
    fields: z.array(FieldSchema).optional().describe('With includeFields=true'),
    entries: z.number().int().optional().describe('With counts=true: every entry of the collection, drafts and the trash too'),
  })
  .meta({ id: 'Collection' });

/** A field type as the admin panel needs it to build its forms (docs/decisions/0041). */
export const FieldTypeSchema = z
  .object({
    type: z.enum(fieldTypes),
    widget: z.string().describe('What the panel shows to edit a value: text-input, textarea, rich-text, entry-picker, …'),
    validation: z.array(FieldValidationSchema.keyof()).describe('The validation keys a field of this type accepts'),
    options: z.array(FieldOptionsSchema.keyof()).describe('The options keys a field of this type accepts'),
    unique: z.boolean().describe('Whether a field of this type may be unique'),
    sortable: z.boolean().describe('Whether content lists can be ordered by a field of this type (orderBy)'),
    searchable: z.boolean().describe('Whether a searchable field of this type adds text to the search index'),
    changesTo: z.array(z.enum(fieldTypes)).describe('The types a field of this type may change to, its stored values kept'),
  })
  .meta({ id: 'FieldType' });

export const FieldTypeListResponse = z.object({ items: z.array(FieldTypeSchema) });
export const CollectionItemResponse = z.object({ item: CollectionSchemaOut });
export const CollectionListResponse = z.object({ items: z.array(CollectionSchemaOut) });
export const FieldItemResponse = z.object({ item: FieldSchema });
export const FieldListResponse = z.object({ items: z.array(FieldSchema) });
export const SchemaExportResponse = z.object({
  collections: z.array(CollectionSchemaOut),
  version: z.string().describe('Changes whenever any collection or field changes'),
});
