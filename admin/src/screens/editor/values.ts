import type { ContentCollection, Field } from '../../api/client';

export type Values = Record<string, unknown>;

/** Two values are the same when their JSON is (values come from JSON and go back as JSON). */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * A value as the API takes it back. Image and file values are read filled in from the media
 * library (url, size, type, `missing`) but written as stored, `{id?, url?, alt?}`.
 */
export function sendable(field: Field | undefined, value: unknown): unknown {
  if (value === undefined) return null;
  if (field && (field.type === 'image' || field.type === 'file') && typeof value === 'object' && value !== null) {
    const { id, url, alt } = value as { id?: string; url?: string; alt?: string };
    return id ? { id, ...(alt ? { alt } : {}) } : { url, ...(alt ? { alt } : {}) };
  }
  return value;
}

/** `values` as a request body's `data`: each sendable, the empty ones left out of a new entry. */
export function bodyData(collection: ContentCollection, values: Values, forCreate: boolean): Values {
  const data: Values = {};
  for (const [slug, value] of Object.entries(values)) {
    if (forCreate && (value === null || value === undefined)) continue;
    data[slug] = sendable(collection.fields.find((field) => field.slug === slug), value);
  }
  return data;
}

/** A URL slug from a title, as the server makes one (lower case, letters and digits joined by single hyphens). */
export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}

/** Two values of a text field together, theirs first: what "keep both" leaves. */
export function bothTexts(field: Field, theirs: unknown, mine: unknown): string {
  const separator = field.type === 'text' ? '\n\n' : ' ';
  return [theirs, mine].filter((value) => typeof value === 'string' && value !== '').join(separator);
}
