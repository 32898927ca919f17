import { AppError, validationError } from '../../core/errors.ts';
import { attachmentKind, notContent, type Convert } from '../sources/shared.ts';
import type { ImportRecord, ImportSource, NormalizedTerm, PostTypeAnalysis, ProbeContext, ProbeResult, SourceAnalysis, SourceContext, SourceInput } from '../sources/types.ts';
import { isSeoMetaKey } from '../sources/seo-keys.ts';
import { agreeingType, decodeSlug, metaFieldSlug } from '../wxr/normalize.ts';
import { siteIdentifier, sourceName, WpcomApi, type Answer } from './api.ts';
import { commentedPosts, commentTotal, postComments, type CommentedPosts } from './comments.ts';
import { authorLogin, normalizeMedia, normalizePost, normalizeTerm, parentOf, postMeta, type WpcomMedia, type WpcomPost, type WpcomSite, type WpcomTerm, type WpcomUser } from './records.ts';

/**
 * `legacy-hosted` (import.md §1): a WordPress.com site read through its public REST API with an
 * OAuth access token (src/import/hosted/connect.ts gets one). Posts, pages and the custom post types
 * the API lists, in every status the token may read — a status it may not (private posts without the
 * owner's approval) is reported as skipped, not a failure — with their custom fields, the categories
 * and tags, the authors and the media records. The records are those of the `wxr` source, so the
 * rest of the import is shared.
 */

/** The statuses listed one by one: a token may read some and not others. Trash and auto-drafts are never imported (DECISIONS §7). */
const statuses = ['publish', 'future', 'draft', 'pending', 'private'] as const;

/** Post types that are never entries: media come from the media endpoint, menus are not in this API. */
const notListed = new Set(['attachment', 'nav_menu_item', ...Object.keys(notContent)]);

interface Connection {
  api: WpcomApi;
  /** The site in the API's paths. */
  site: string;
  /** The site's address as given. */
  url: string;
}

function connectionOf(input: SourceInput, context: SourceContext): Connection {
  if (input.type !== 'oauth') {
    throw validationError([{ path: 'accessToken', message: 'Required: legacy-hosted reads a WordPress.com site with an OAuth access token ({type: "oauth", url, accessToken})' }]);
  }
  return { api: new WpcomApi({ config: context.config, accessToken: input.accessToken, signal: context.signal }), site: encodeURIComponent(siteIdentifier(input.url)), url: input.url };
}

/** The content post types the API lists for the site; post and page when it will not say. */
async function postTypesOf({ api, site }: Connection): Promise<string[]> {
  const answer = await api.getUnlessForbidden<{ post_types?: { name: string; api_queryable?: boolean }[] }>(`sites/${site}/post-types`);
  const types = 'forbidden' in answer ? undefined : answer.body.post_types;
  const listed = Array.isArray(types) ? types.filter((type) => type.api_queryable !== false) : [{ name: 'post' }, { name: 'page' }];
  return listed.map((type) => type.name).filter((name) => !notListed.has(name));
}

/** Every post of a type, status by status; a status the token may not read comes as `forbidden`. */
async function* postsOf({ api, site }: Connection, type: string): AsyncGenerator<{ post: WpcomPost } | { status: string; forbidden: string }> {
  for (const status of statuses) {
    for await (const page of api.pages<WpcomPost>(`sites/${site}/posts/`, 'posts', { type, status, context: 'edit' })) {
      if ('forbidden' in page) yield { status, forbidden: page.forbidden };
      else for (const post of page.items) yield { post };
    }
  }
}

/** Every item of a list the token may read; nothing when it may not. */
async function* listOf<T>({ api, site }: Connection, path: string, key: string, query: Record<string, string | number> = {}): AsyncGenerator<T> {
  for await (const page of api.pages<T>(`sites/${site}/${path}`, key, query)) if (!('forbidden' in page)) yield* page.items;
}

/** Categories and tags, parents named by slug as an export names them. */
async function termsOf(connection: Connection): Promise<NormalizedTerm[]> {
  const terms: NormalizedTerm[] = [];
  for (const [taxonomy, path] of [['category', 'categories'], ['post_tag', 'tags']] as const) {
    const listed: WpcomTerm[] = [];
    for await (const term of listOf<WpcomTerm>(connection, path, path)) listed.push(term);
    const slugs = new Map(listed.map((term) => [term.ID, decodeSlug(term.slug)]));
    terms.push(...listed.map((term) => normalizeTerm(taxonomy, term, slugs)));
  }
  return terms;
}

function skippedStatus(type: string, status: string, message: string) {
  return {
    postType: `${type} (${status})`,
    count: 0,
    reason:
      status === 'private'
        ? `private ${type} items need the site owner's approval: this connection may not read them (WordPress.com: ${message})`
        : `this connection may not read ${status} ${type} items (WordPress.com: ${message})`,
  };
}

async function analyzeHosted(input: SourceInput, context: SourceContext): Promise<SourceAnalysis> {
  const connection = connectionOf(input, context);
  const info = await connection.api.get<WpcomSite>(`sites/${connection.site}`);
  const siteUrl = (info.URL ?? connection.url).replace(/\/+$/, '');
  const postTypes: (PostTypeAnalysis & { ids: Set<string>; parents: string[]; meta: Map<string, ReturnType<typeof agreeingType>> })[] = [];
  const skipped: SourceAnalysis['skipped'] = [];
  const authors = new Map<string, SourceAnalysis['authors'][number]>();
  const taxonomies = new Map<string, { name: string; hierarchical: boolean; terms: Set<string> }>();
  let reusableBlocks = 0;
  let comments = 0;
  const commented = await commentedPosts(connection.api, connection.site);
  for (const term of await termsOf(connection)) {
    const known = taxonomies.get(term.taxonomy) ?? { name: term.taxonomy, hierarchical: term.taxonomy === 'category', terms: new Set<string>() };
    known.terms.add(term.slug);
    taxonomies.set(term.taxonomy, known);
  }
  for (const name of await postTypesOf(connection)) {
    const type = { name, count: 0, hierarchical: false, hasMenuOrder: false, hasSticky: false, comments: 0, hasSeo: false, metaFields: [], ids: new Set<string>(), parents: [] as string[], meta: new Map<string, ReturnType<typeof agreeingType>>() };
    for await (const entry of postsOf(connection, name)) {
      if ('forbidden' in entry) {
        skipped.push(skippedStatus(name, entry.status, entry.forbidden));
        continue;
      }
      const { post } = entry;
      const postComments = commentTotal(commented.get(String(post.ID)));
      comments += postComments;
      if (name === 'wp_block') {
        reusableBlocks++;
        continue;
      }
      type.count++;
      type.ids.add(String(post.ID));
      const parent = parentOf(post);
      if (parent) type.parents.push(parent);
      if (post.menu_order) type.hasMenuOrder = true;
      if (post.sticky) type.hasSticky = true;
      type.comments += postComments;
      if (post.author) {
        const login = authorLogin(post.author);
        const author = authors.get(login) ?? { login, displayName: post.author.name || login, email: post.author.email || '', posts: 0 };
        author.posts++;
        authors.set(login, author);
      }
      for (const [taxonomy, terms] of Object.entries(post.terms ?? {})) {
        const known = taxonomies.get(taxonomy) ?? { name: taxonomy, hierarchical: false, terms: new Set<string>() };
        for (const term of Object.values(terms ?? {})) known.terms.add(decodeSlug(term.slug));
        if (known.terms.size > 0) taxonomies.set(taxonomy, known);
      }
      for (const [key, value] of Object.entries(postMeta(post))) {
        // The SEO plugins' keys become the entries' SEO values (and their focus keyword stays in the meta), not fields.
        if (isSeoMetaKey(key)) type.hasSeo = true;
        if (isSeoMetaKey(key) || key.startsWith('_') || metaFieldSlug(key) === undefined) continue;
        type.meta.set(key, agreeingType(type.meta.get(key), value));
      }
    }
    if (type.count > 0) postTypes.push(type);
  }
  const attachments: SourceAnalysis['attachments'] = { images: 0, video: 0, audio: 0, other: 0 };
  for await (const media of listOf<WpcomMedia>(connection, 'media', 'media')) attachments[attachmentKind(media.URL, media.mime_type)]++;
  return {
    site: { title: info.name ?? '', url: siteUrl, ...(info.lang ? { language: info.lang } : {}) },
    // The key an export of the same site gets (wxr: its blog URL): importing one after the other duplicates nothing.
    sourceKey: `wxr:${siteUrl.toLowerCase()}`,
    postTypes: postTypes.map(({ ids, parents, meta, ...type }) => ({ ...type, hierarchical: parents.some((parent) => ids.has(parent)), metaFields: [...meta].map(([key, fieldType]) => ({ key, type: fieldType })) })),
    skipped,
    attachments,
    authors: [...authors.values()],
    taxonomies: [...taxonomies.values()].map(({ name, hierarchical, terms }) => ({ name, hierarchical, terms: terms.size })),
    menus: [],
    reusableBlocks,
    comments,
  };
}

/**
 * Which posts have comments, listed once per run: the import job reads the records twice (the
 * structure up to the first item, then everything), and each read would list every comment's id
 * again, a request per hundred comments and status. Kept with the run's input (the job's one object),
 * so a later run lists the site as it is then (the analysis' counts may be hours old).
 */
const commentedPostsByRun = new WeakMap<SourceInput, Promise<CommentedPosts>>();

function commentedPostsOf(input: SourceInput, { api, site }: Connection): Promise<CommentedPosts> {
  let listed = commentedPostsByRun.get(input);
  if (!listed) commentedPostsByRun.set(input, (listed = commentedPosts(api, site)));
  return listed;
}

/** The site's records: authors and terms first (the import's structure), then items type by type, then the media records. */
async function* fetchHosted(input: SourceInput, context: SourceContext): AsyncGenerator<ImportRecord> {
  const connection = connectionOf(input, context);
  // Loaded on the first import, not with every process that registers the source (the CLI's start).
  const { convertPostContent } = (await import('../convert/index.ts')) as { convertPostContent: Convert };
  const info = await connection.api.get<WpcomSite>(`sites/${connection.site}`);
  const siteUrl = (info.URL ?? connection.url).replace(/\/+$/, '');
  // Listing users needs the right to; without it, authors get guest bylines named by login as items name them.
  for await (const user of listOf<WpcomUser>(connection, 'users', 'users', { authors_only: 'true' })) {
    const login = authorLogin(user);
    yield { kind: 'author', author: { sourceId: login, login, displayName: user.name || login, ...(user.email ? { email: user.email } : {}) } };
  }
  for (const term of await termsOf(connection)) yield { kind: 'term', term };
  for (const name of await postTypesOf(connection)) {
    for await (const entry of postsOf(connection, name)) {
      if ('forbidden' in entry) continue;
      const { post } = entry;
      if (name === 'wp_block') {
        const { blocks } = convertPostContent(post.content ?? '', { siteUrl });
        yield { kind: 'section', section: { sourceId: String(post.ID), slug: decodeSlug(post.slug ?? '') || `block-${post.ID}`, title: post.title || `Block ${post.ID}`, content: blocks } };
      } else {
        const item = normalizePost(post, siteUrl, convertPostContent);
        item.comments = await postComments(connection.api, connection.site, item.sourceId, (await commentedPostsOf(input, connection)).get(item.sourceId), item.warnings);
        yield { kind: 'item', item };
      }
    }
  }
  for await (const media of listOf<WpcomMedia>(connection, 'media', 'media')) yield { kind: 'attachment', attachment: normalizeMedia(media) };
}

/**
 * A WordPress.com site answers the public API's site endpoint with its ID without a token; a
 * Jetpack-connected self-hosted site answers too, but is left to `legacy-rest` (its export file has
 * everything). A private WordPress.com site answers 403 (its content is for members), which still
 * says it is there: the connection is offered, less surely. Public counts come from the lists' `found`.
 */
async function probeHosted(url: string, context: ProbeContext): Promise<ProbeResult | null> {
  const site = encodeURIComponent(siteIdentifier(url));
  const read = async <T>(path: string, query: Record<string, string | number> = {}): Promise<Answer<T> | undefined> => {
    const timeoutMs = context.deadline - Date.now();
    if (timeoutMs <= 0) return undefined;
    try {
      return await new WpcomApi({ config: context.config, timeoutMs, retries: 0 }).getUnlessForbidden<T>(path, query);
    } catch (error) {
      if (error instanceof AppError) return undefined;
      throw error;
    }
  };
  const answer = await read<WpcomSite>(`sites/${site}`);
  if (!answer) return null;
  const detected = { platform: 'wordpress.com', hosting: 'hosted' };
  if ('forbidden' in answer) {
    return { sourceId: sourceName, confidence: 'likely', detected: { ...detected, title: '', siteUrl: url, private: true, counts: { posts: null, pages: null, media: null } } };
  }
  const info = answer.body;
  if (typeof info.ID !== 'number' || info.jetpack) return null;
  const found = async (path: string, query: Record<string, string | number>) => {
    const list = await read<{ found?: unknown }>(path, { ...query, number: 1, fields: 'ID' });
    return list && 'body' in list && typeof list.body.found === 'number' && Number.isInteger(list.body.found) && list.body.found >= 0 ? list.body.found : null;
  };
  const [posts, pages, media] = await Promise.all([found(`sites/${site}/posts/`, { type: 'post' }), found(`sites/${site}/posts/`, { type: 'page' }), found(`sites/${site}/media`, {})]);
  return {
    sourceId: sourceName,
    confidence: 'definite',
    detected: {
      ...detected,
      title: info.name ?? '',
      ...(info.description ? { description: info.description } : {}),
      siteUrl: info.URL ?? url,
      siteId: info.ID,
      ...(info.is_private !== undefined ? { private: info.is_private } : {}),
      counts: { posts, pages, media },
    },
  };
}

export const legacyHostedSource: ImportSource = {
  id: sourceName,
  name: 'WordPress.com (REST API over OAuth)',
  probe: probeHosted,
  analyze: analyzeHosted,
  fetchContent: fetchHosted,
};
