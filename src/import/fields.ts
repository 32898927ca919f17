import type { LoadedCollection } from '../schema/store.ts';
import type { FieldType } from '../schema/types.ts';
import { metaFieldSlug } from './wxr/normalize.ts';
import type { PostTypeAnalysis } from './sources/types.ts';

/**
 * The fields an imported post type needs in its collection: the import's own (title, content,
 * excerpt, featured image, page hierarchy, menu order, sticky, the rest of the meta as JSON) and
 * one field per custom field whose values agree on a type.
 */
export interface WantedField {
  slug: string;
  label: string;
  type: FieldType;
  options?: { collection?: string };
  searchable?: boolean;
  /** The meta key whose values this field holds. */
  metaKey?: string;
}

export function wantedFields(postType: PostTypeAnalysis, collection: string): WantedField[] {
  const fields: WantedField[] = [
    { slug: 'title', label: 'Title', type: 'string', searchable: true },
    { slug: 'content', label: 'Content', type: 'portableText', searchable: true },
    { slug: 'excerpt', label: 'Excerpt', type: 'text', searchable: true },
    { slug: 'featured_image', label: 'Featured image', type: 'image' },
  ];
  if (postType.hierarchical) fields.push({ slug: 'parent', label: 'Parent', type: 'reference', options: { collection } });
  if (postType.hierarchical || postType.hasMenuOrder) fields.push({ slug: 'menu_order', label: 'Menu order', type: 'integer' });
  if (postType.hasSticky) fields.push({ slug: 'sticky', label: 'Sticky', type: 'boolean' });
  for (const meta of postType.metaFields) {
    const slug = metaFieldSlug(meta.key);
    if (slug !== undefined) fields.push({ slug, label: meta.key, type: meta.type, metaKey: meta.key });
  }
  fields.push({ slug: 'meta', label: 'Other custom fields', type: 'json' });
  return fields;
}

/** The collection a post type goes to unless the mapping says otherwise: `post` → `posts`, `page` → `pages`. */
export function defaultCollection(postType: string): string {
  if (postType === 'post') return 'posts';
  if (postType === 'page') return 'pages';
  const slug = postType.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^[^a-z]+/, '').slice(0, 63);
  return slug || 'imported';
}

export type TypeStatus = 'ready' | 'new_collection' | 'add_fields' | 'incompatible';

export interface TypeCompatibility {
  status: TypeStatus;
  fieldsToAdd: WantedField[];
  conflicts: { field: string; existingType: FieldType; wantedType: FieldType }[];
}

/** How a collection as it stands fits the fields a post type wants (import.md §3). */
export function compatibility(existing: LoadedCollection | undefined, wanted: WantedField[]): TypeCompatibility {
  if (!existing) return { status: 'new_collection', fieldsToAdd: wanted, conflicts: [] };
  const fieldsToAdd: WantedField[] = [];
  const conflicts: TypeCompatibility['conflicts'] = [];
  for (const field of wanted) {
    const found = existing.fields.find((candidate) => candidate.slug === field.slug);
    if (!found) fieldsToAdd.push(field);
    else if (!fits(found.type, field.type)) conflicts.push({ field: field.slug, existingType: found.type, wantedType: field.type });
  }
  const status: TypeStatus = conflicts.length > 0 ? 'incompatible' : fieldsToAdd.length > 0 ? 'add_fields' : 'ready';
  return { status, fieldsToAdd, conflicts };
}

/** An existing field takes the values when its type holds them: text holds strings, number holds integers. */
function fits(existing: FieldType, wanted: FieldType): boolean {
  if (existing === wanted) return true;
  if (existing === 'text' && wanted === 'string') return true;
  if (existing === 'number' && wanted === 'integer') return true;
  return existing === 'json';
}
