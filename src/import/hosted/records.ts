import { decodeSlug, firstMetaValues, metaByKey, metaRecord, metaValue } from '../wxr/normalize.ts';
import { withContent, type Convert } from '../sources/shared.ts';
import type { AttachmentRef, NormalizedItem, NormalizedTerm } from '../sources/types.ts';

/**
 * WordPress.com's API answers (REST v1.1, `context=edit`) as the normalized records every source
 * yields: the same ids (post, attachment and term ids, author logins, term slugs) an export of the
 * same site has, so an import from either finds what the other made.
 */

export interface WpcomSite {
  ID: number;
  name?: string;
  description?: string;
  URL?: string;
  lang?: string;
  jetpack?: boolean;
  is_private?: boolean;
  post_count?: number;
}

export interface WpcomUser {
  ID: number;
  login?: string;
  email?: string | false;
  name?: string;
  nice_name?: string;
}

export interface WpcomTerm {
  ID: number;
  name: string;
  slug: string;
  description?: string;
  /** The parent's ID (categories); 0 at the top. */
  parent?: number;
}

export interface WpcomPost {
  ID: number;
  author?: WpcomUser | false;
  date: string;
  modified?: string;
  title?: string;
  content?: string;
  excerpt?: string;
  slug?: string;
  /** Its address on the site. */
  URL?: string;
  status: string;
  sticky?: boolean;
  /** The post's password (asked with `context: 'edit'`); empty when it has none. */
  password?: string;
  parent?: false | { ID: number };
  type: string;
  menu_order?: number;
  post_thumbnail?: { ID: number } | null;
  terms?: Record<string, Record<string, WpcomTerm>>;
  metadata?: false | { key: string; value: unknown }[];
}

export interface WpcomMedia {
  ID: number;
  URL: string;
  post_ID?: number;
  mime_type?: string;
  title?: string;
  caption?: string;
  alt?: string;
}

/** The author's login, as an export names authors; the public name or id when the API hides the login. */
export function authorLogin(user: WpcomUser): string {
  return user.login || user.nice_name || `user-${user.ID}`;
}

/** The API's ISO dates with an offset (`2024-05-01T10:00:00+02:00`) in UTC. */
function isoDate(text: string | undefined): string | undefined {
  const time = text ? Date.parse(text) : Number.NaN;
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** A value the API gives as text is decoded like an export's (PHP-serialized ones too). */
const apiMetaValue = (value: unknown): unknown => (typeof value === 'string' ? metaValue(value) : value);

/** The post's custom fields by key, a repeated key's values in an array, as an export's are. */
export function postMeta(post: WpcomPost): Record<string, unknown> {
  return metaRecord(metaByKey(post.metadata || []), apiMetaValue);
}

/** Terms of every taxonomy the post has (post formats too, as an export has them). */
function postTerms(post: WpcomPost): NormalizedItem['terms'] {
  return Object.entries(post.terms ?? {}).flatMap(([taxonomy, terms]) => Object.values(terms ?? {}).map((term) => ({ taxonomy, slug: decodeSlug(term.slug), name: term.name })));
}

export function parentOf(post: WpcomPost): string | undefined {
  return post.parent && post.parent.ID ? String(post.parent.ID) : undefined;
}

export function normalizePost(post: WpcomPost, siteUrl: string, convert: Convert): NormalizedItem {
  const metaValues = metaByKey(post.metadata || []);
  // What is read as one value, WordPress reads as the key's first.
  const single = firstMetaValues(metaValues);
  const terms = postTerms(post);
  const author = post.author ? authorLogin(post.author) : undefined;
  const date = isoDate(post.date);
  const modified = isoDate(post.modified);
  const thumbnailId = single.get('_thumbnail_id');
  const thumbnail = post.post_thumbnail?.ID ?? (typeof thumbnailId === 'string' ? thumbnailId.trim() : undefined);
  const item: NormalizedItem = {
    sourceId: String(post.ID),
    postType: post.type,
    status: post.status || 'draft',
    slug: decodeSlug(post.slug ?? ''),
    title: post.title ?? '',
    ...(post.URL ? { link: post.URL } : {}),
    content: [],
    ...(post.excerpt && post.excerpt.trim() !== '' ? { excerpt: post.excerpt } : {}),
    ...(date ? { date } : {}),
    ...(modified ? { modified } : {}),
    ...(author ? { author } : {}),
    authors: author ? [author] : [],
    categories: terms.filter((term) => term.taxonomy === 'category').map((term) => term.name),
    tags: terms.filter((term) => term.taxonomy === 'post_tag').map((term) => term.name),
    terms,
    meta: metaRecord(metaValues, apiMetaValue),
    ...(thumbnail ? { featuredImage: String(thumbnail) } : {}),
    ...(parentOf(post) ? { parent: parentOf(post) } : {}),
    ...(post.menu_order ? { menuOrder: post.menu_order } : {}),
    ...(post.sticky ? { sticky: true } : {}),
    ...(post.password ? { passwordProtected: true as const } : {}),
    comments: [],
    warnings: [],
  };
  const footnotes = single.get('footnotes');
  return withContent(item, post.content ?? '', { siteUrl, ...(typeof footnotes === 'string' && footnotes ? { footnotes } : {}) }, convert);
}

/** Categories name their parent by ID; terms name theirs by slug (as an export does), so the IDs are looked up. */
export function normalizeTerm(taxonomy: string, term: WpcomTerm, slugsById: Map<number, string>): NormalizedTerm {
  const parent = term.parent ? slugsById.get(term.parent) : undefined;
  return {
    sourceId: decodeSlug(term.slug),
    termId: String(term.ID),
    taxonomy,
    slug: decodeSlug(term.slug),
    name: term.name || term.slug,
    ...(term.description ? { description: term.description } : {}),
    ...(parent ? { parent } : {}),
  };
}

export function normalizeMedia(media: WpcomMedia): AttachmentRef {
  return {
    sourceId: String(media.ID),
    url: media.URL,
    ...(media.post_ID ? { parentId: String(media.post_ID) } : {}),
    ...(media.title ? { title: media.title } : {}),
    ...(media.alt ? { alt: media.alt } : {}),
    ...(media.caption ? { caption: media.caption } : {}),
  };
}
