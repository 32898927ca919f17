/**
 * Which media items a stored field value names (decisions/0045). Shared by the entry listener that
 * keeps `media_usage` up to date and by the migration that fills it from existing entries, which
 * cannot import a feature: so it lives here, knowing only the stored shapes.
 *
 * - an `image` or `file` value is `{id?, url?, alt?, caption?}`;
 * - a `portableText` value is a tree of blocks in which any object of `_type` `image` or `file` is a
 *   media block: it names its item by `id` (the shape field values use), `mediaId`, or a Sanity-style
 *   `asset._ref`, or only by `url`.
 *
 * A URL names an item when it is Folio's own file route (`/_cms/api/media/file/<storage key>`): the
 * caller turns those keys into ids. Other URLs (another site's image) name no item.
 */

export interface NamedMedia {
  ids: Set<string>;
  /** Storage keys read from URLs of Folio's file route. */
  keys: Set<string>;
}

/** The field types whose values can name media items. */
export const mediaNamingTypes: ReadonlySet<string> = new Set(['image', 'file', 'portableText']);

const fileRoute = '/_cms/api/media/file/';

/** Adds what one stored value names to `into`; a value may come as its column's JSON text or parsed. */
export function collectMediaNames(type: string, value: unknown, into: NamedMedia): void {
  const parsed = typeof value === 'string' ? parseJson(value) : value;
  if (parsed === null || parsed === undefined) return;
  if (type === 'image' || type === 'file') collectReference(parsed, into);
  else if (type === 'portableText') collectBlocks(parsed, into, 0);
}

/** The storage key in a URL of Folio's file route, or undefined for any other URL. */
export function storageKeyOfUrl(url: string): string | undefined {
  const start = url.indexOf(fileRoute);
  if (start === -1) return undefined;
  const path = url.slice(start + fileRoute.length).split(/[?#]/)[0] ?? '';
  if (path === '') return undefined;
  try {
    return path.split('/').map(decodeURIComponent).join('/');
  } catch {
    return undefined;
  }
}

function collectReference(value: unknown, into: NamedMedia): void {
  if (!isObject(value)) return;
  const id = value.id ?? value.mediaId ?? (isObject(value.asset) ? value.asset._ref : undefined);
  if (typeof id === 'string' && id !== '') into.ids.add(id);
  else if (typeof value.url === 'string') {
    const key = storageKeyOfUrl(value.url);
    if (key !== undefined) into.keys.add(key);
  }
}

/** Portable Text nests (spans and inline objects inside blocks, custom blocks with their own lists). */
const maxDepth = 32;

function collectBlocks(value: unknown, into: NamedMedia, depth: number): void {
  if (depth > maxDepth) return;
  if (Array.isArray(value)) {
    for (const item of value) collectBlocks(item, into, depth + 1);
    return;
  }
  if (!isObject(value)) return;
  if (value._type === 'image' || value._type === 'file') collectReference(value, into);
  for (const [key, child] of Object.entries(value)) {
    if (key !== 'asset' && typeof child === 'object' && child !== null) collectBlocks(child, into, depth + 1);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What the usage table needs of a field. */
export interface NamingField {
  id: string;
  slug: string;
  type: string;
}

/**
 * What each field of an entry row names, in its working values (the columns) and its live values
 * (the `_live` snapshot kept while a draft is staged): both are in use. Fields that name nothing are left out.
 */
export function entryMediaNames(fields: readonly NamingField[], row: Record<string, unknown>): Map<string, NamedMedia> {
  const live = typeof row._live === 'string' ? parseJson(row._live) : undefined;
  const byField = new Map<string, NamedMedia>();
  for (const field of fields) {
    if (!mediaNamingTypes.has(field.type)) continue;
    const names: NamedMedia = { ids: new Set(), keys: new Set() };
    collectMediaNames(field.type, row[field.slug], names);
    if (isObject(live)) collectMediaNames(field.type, live[field.slug], names);
    if (names.ids.size > 0 || names.keys.size > 0) byField.set(field.id, names);
  }
  return byField;
}

/** The storage keys among what fields name, to be looked up in one statement. */
export function keysNamed(byField: ReadonlyMap<string, NamedMedia>): string[] {
  return [...byField.values()].flatMap((names) => [...names.keys]);
}

/** Each (field, item) pair, URLs resolved through `idOfKey`; a key no item holds names nothing. */
export function usagePairs(byField: ReadonlyMap<string, NamedMedia>, idOfKey: ReadonlyMap<string, string>): { fieldId: string; mediaId: string }[] {
  return [...byField].flatMap(([fieldId, names]) => {
    const ids = new Set([...names.ids, ...[...names.keys].flatMap((key) => idOfKey.get(key) ?? [])]);
    return [...ids].map((mediaId) => ({ fieldId, mediaId }));
  });
}
