import { attachmentKind, notContent, withContent, type Convert } from '../sources/shared.ts';
import type { ImportRecord, ImportSource, NormalizedComment, NormalizedItem, NormalizedMenuItem, PostTypeAnalysis, SourceAnalysis, SourceInput } from '../sources/types.ts';
import { normalizeComments } from './comments.ts';
import { coAuthorTaxonomy, creditedLogins, guestAuthorReason, guestAuthors, guestAuthorType } from './co-authors.ts';
import { readOnePerId, type SetAsideCause } from './duplicates.ts';
import { isSeoMetaKey } from '../sources/seo-keys.ts';
import { agreeingType, decodeSlug, firstMetaValues, gmtDate, metaByKey, metaFieldSlug, metaRecord, metaValue, rssDate } from './normalize.ts';
import { badExport } from './reader.ts';
import type { WxrChannel, WxrItem } from './records.ts';

/**
 * The `wxr` source: a WordPress export file (extended RSS). Everything an export holds is read:
 * every post type, drafts and private posts, all meta, the whole term hierarchy, menus and
 * attachment metadata. The file is read as a stream each time (analysis, then the import's passes).
 */

function fileOf(input: SourceInput) {
  if (input.type !== 'file') throw badExport('The wxr source reads an uploaded export file');
  return input.file();
}

/** What identifies the site: its blog URL, else its site URL, else its title. */
function sourceKeyOf(channel: WxrChannel): string {
  const url = channel.baseBlogUrl || channel.link || channel.baseSiteUrl;
  return `wxr:${(url || channel.title).replace(/\/+$/, '').toLowerCase()}`;
}

function siteUrlOf(channel: WxrChannel): string {
  return (channel.baseBlogUrl || channel.link || channel.baseSiteUrl).replace(/\/+$/, '');
}

/** Items set aside (duplicates.ts), as the analysis counts them: among the skipped, one line per cause and post type. */
const setAsideReasons: Record<SetAsideCause, string> = {
  'no post id': 'items without a post id (wp:post_id), by which items are imported',
  duplicate: 'a second item with the post id of another: the first is imported',
  'partial duplicate': 'a partial item (no post type or status) with the post id of another: the complete one is imported',
};

export async function analyzeWxr(input: SourceInput): Promise<SourceAnalysis> {
  let channel: WxrChannel | undefined;
  const postTypes = new Map<string, PostTypeAnalysis & { ids: Set<string>; parents: string[]; meta: Map<string, ReturnType<typeof agreeingType>> }>();
  const skipped = new Map<string, { count: number; reason: string }>();
  const attachments: SourceAnalysis['attachments'] = { images: 0, video: 0, audio: 0, other: 0 };
  const authors = new Map<string, SourceAnalysis['authors'][number]>();
  const taxonomies = new Map<string, { name: string; hierarchical: boolean; terms: Set<string> }>();
  const menus = new Map<string, { name: string; label: string; items: number }>();
  let reusableBlocks = 0;
  let comments = 0;
  const taxonomy = (name: string) => {
    let found = taxonomies.get(name);
    if (!found) taxonomies.set(name, (found = { name, hierarchical: name === 'category', terms: new Set() }));
    return found;
  };
  const skip = (postType: string, reason: string) => {
    const entry = skipped.get(postType) ?? { count: 0, reason };
    entry.count++;
    skipped.set(postType, entry);
  };

  for await (const record of readOnePerId(() => fileOf(input))) {
    if (record.kind === 'channel') channel = record.channel;
    else if (record.kind === 'setAside') skip(`${record.item.postType} (${record.cause})`, setAsideReasons[record.cause]);
    else if (record.kind === 'author') {
      authors.set(record.author.login, { login: record.author.login, displayName: record.author.displayName || record.author.login, email: record.author.email, posts: 0 });
    } else if (record.kind === 'term') {
      const { term } = record;
      if (term.taxonomy === 'nav_menu') {
        if (!menus.has(term.slug)) menus.set(term.slug, { name: term.slug, label: term.name || term.slug, items: 0 });
      } else if (term.taxonomy !== '' && term.taxonomy !== coAuthorTaxonomy) {
        const known = taxonomy(term.taxonomy);
        known.terms.add(term.slug);
        if (term.parent !== '') known.hierarchical = true;
      }
    } else {
      const { item } = record;
      comments += item.comments.length;
      if (item.postType === 'attachment') {
        const url = item.attachmentUrl || item.guid;
        attachments[attachmentKind(url)]++;
        continue;
      }
      if (item.postType === 'nav_menu_item') {
        const menu = item.terms.find((term) => term.taxonomy === 'nav_menu');
        if (menu) {
          const known = menus.get(menu.slug) ?? { name: menu.slug, label: menu.name || menu.slug, items: 0 };
          known.items++;
          menus.set(menu.slug, known);
        } else skip('nav_menu_item', 'menu items that belong to no menu');
        continue;
      }
      if (item.postType === 'wp_block') {
        reusableBlocks++;
        continue;
      }
      if (item.postType === guestAuthorType) {
        skip(item.postType, guestAuthorReason);
        continue;
      }
      if (Object.hasOwn(notContent, item.postType)) {
        skip(item.postType, notContent[item.postType]!);
        continue;
      }
      if (['trash', 'auto-draft', 'inherit'].includes(item.status)) {
        skip(`${item.postType} (${item.status})`, `status ${item.status} is not imported (DECISIONS §7)`);
        continue;
      }
      const type = postTypes.get(item.postType) ?? { name: item.postType, count: 0, hierarchical: false, hasMenuOrder: false, hasSticky: false, comments: 0, hasSeo: false, metaFields: [], ids: new Set<string>(), parents: [] as string[], meta: new Map() };
      postTypes.set(item.postType, type);
      type.count++;
      type.ids.add(item.id);
      if (item.parent !== '' && item.parent !== '0') type.parents.push(item.parent);
      if (item.menuOrder !== '' && item.menuOrder !== '0') type.hasMenuOrder = true;
      if (item.sticky === '1') type.hasSticky = true;
      type.comments += item.comments.length;
      // A co-author no source author has is a guest byline: not one to map to a user.
      const credited = creditedLogins(item);
      for (const login of credited === item.creators ? credited : credited.filter((name) => authors.has(name))) {
        const author = authors.get(login) ?? { login, displayName: login, email: '', posts: 0 };
        author.posts++;
        authors.set(login, author);
      }
      for (const term of item.terms) if (term.taxonomy !== 'nav_menu' && term.taxonomy !== coAuthorTaxonomy) taxonomy(term.taxonomy).terms.add(term.slug);
      // A repeated key's values come as an array, as the entry will hold them: its field is then JSON.
      // The SEO plugins' keys become the entries' SEO values (and their focus keyword stays in the meta), not fields.
      if (item.meta.some(({ key }) => isSeoMetaKey(key))) type.hasSeo = true;
      const fieldMeta = item.meta.filter(({ key }) => !key.startsWith('_') && metaFieldSlug(key) !== undefined && !isSeoMetaKey(key));
      for (const [key, value] of Object.entries(metaRecord(metaByKey(fieldMeta), metaValue))) {
        type.meta.set(key, agreeingType(type.meta.get(key), value));
      }
    }
  }
  if (!channel) throw badExport('Not a WordPress export: the file has no channel');
  return {
    site: { title: channel.title, url: siteUrlOf(channel), ...(channel.language ? { language: channel.language } : {}) },
    sourceKey: sourceKeyOf(channel),
    version: channel.version,
    postTypes: [...postTypes.values()].map(({ ids, parents, meta, ...type }) => ({
      ...type,
      hierarchical: type.hierarchical || parents.some((parent) => ids.has(parent)),
      metaFields: [...meta].map(([key, fieldType]) => ({ key, type: fieldType })),
    })),
    skipped: [...skipped].map(([postType, { count, reason }]) => ({ postType, count, reason })),
    attachments,
    authors: [...authors.values()],
    taxonomies: [...taxonomies.values()].map(({ name, hierarchical, terms }) => ({ name, hierarchical, terms: terms.size })),
    menus: [...menus.values()],
    reusableBlocks,
    comments,
  };
}

/**
 * The records of the export, normalized: authors and terms (from the channel, before the first
 * item), then items, menu items, reusable blocks and attachments in file order, one per post id
 * (partial items that stand for their id last), and a `skipped` record for each item set aside.
 */
export async function* fetchWxr(input: SourceInput): AsyncGenerator<ImportRecord> {
  // Loaded on the first import, not with every process that registers the source (the CLI's start).
  const { convertPostContent } = await import('../convert/index.ts');
  let siteUrl = '';
  const sourceLogins = new Set<string>();
  // A comment names the signed-in user who wrote it by the author's id.
  const loginsById = new Map<string, string>();
  // Co-Authors Plus exports its credits as terms of its taxonomy, before the items: only then are
  // guest authors looked for (a second read of the file).
  let coAuthorTerms = false;
  let itemsBegun = false;
  for await (const record of readOnePerId(() => fileOf(input))) {
    if (record.kind === 'channel') siteUrl = siteUrlOf(record.channel);
    else if (record.kind === 'author') {
      const { author } = record;
      sourceLogins.add(author.login);
      if (author.id !== '') loginsById.set(author.id, author.login);
      yield { kind: 'author', author: { sourceId: author.login, login: author.login, displayName: author.displayName || author.login, ...(author.email ? { email: author.email } : {}) } };
    } else if (record.kind === 'term') {
      const { term } = record;
      if (term.taxonomy === coAuthorTaxonomy) coAuthorTerms = true;
      if (term.taxonomy === '' || term.taxonomy === 'nav_menu' || term.taxonomy === coAuthorTaxonomy || term.slug === '') continue;
      yield {
        kind: 'term',
        term: {
          sourceId: term.slug,
          ...(term.id ? { termId: term.id } : {}),
          taxonomy: term.taxonomy,
          slug: decodeSlug(term.slug),
          name: term.name || term.slug,
          ...(term.description ? { description: term.description } : {}),
          ...(term.parent ? { parent: term.parent } : {}),
        },
      };
    } else {
      // The authors end before the first item (or item set aside): the guest authors join them there.
      if (!itemsBegun) {
        itemsBegun = true;
        if (coAuthorTerms) for (const author of await guestAuthors(await fileOf(input), sourceLogins)) yield { kind: 'author', author };
      }
      if (record.kind === 'setAside') yield { kind: 'skipped', sourceId: record.item.id, title: record.item.title, postType: record.item.postType, reason: record.reason };
      else yield* itemRecords(record.item, siteUrl, loginsById, convertPostContent);
    }
  }
}

function* itemRecords(item: WxrItem, siteUrl: string, loginsById: ReadonlyMap<string, string>, convertPostContent: Convert): Generator<ImportRecord> {
  const metaValues = metaByKey(item.meta);
  // What the importer reads as one value (a thumbnail, a menu item's target), WordPress reads as the key's first.
  const meta = firstMetaValues(metaValues);
  if (item.postType === 'attachment') {
    const alt = meta.get('_wp_attachment_image_alt');
    yield {
      kind: 'attachment',
      attachment: {
        sourceId: item.id,
        url: item.attachmentUrl || item.guid,
        ...(item.parent !== '' && item.parent !== '0' ? { parentId: item.parent } : {}),
        ...(item.title ? { title: item.title } : {}),
        ...(alt ? { alt } : {}),
        ...(item.excerpt ? { caption: item.excerpt } : {}),
      },
    };
  } else if (item.postType === 'nav_menu_item') {
    const menuItem = menuItemOf(item, meta, siteUrl);
    if (menuItem) yield { kind: 'menuItem', menuItem };
  } else if (item.postType === 'wp_block') {
    const { blocks } = convertPostContent(item.content, { siteUrl });
    yield { kind: 'section', section: { sourceId: item.id, slug: decodeSlug(item.slug) || `block-${item.id}`, title: item.title || `Block ${item.id}`, content: blocks } };
  } else if (item.postType !== guestAuthorType && !Object.hasOwn(notContent, item.postType)) {
    const commentWarnings: string[] = [];
    const normalized = normalizeItem(item, metaValues, meta, siteUrl, normalizeComments(item.comments, loginsById, commentWarnings), convertPostContent);
    normalized.warnings.push(...commentWarnings);
    yield { kind: 'item', item: normalized };
  }
}

/**
 * The item's date: WordPress's GMT one, else its local one (read as GMT, as ever: the export does not
 * say the site's zone), else RSS's `pubDate`; none at all leaves the importer to date the entry.
 */
function dateOf(item: WxrItem): string | undefined {
  return gmtDate(item.dateGmt) ?? gmtDate(item.date) ?? rssDate(item.pubDate);
}

function normalizeItem(item: WxrItem, metaValues: Map<string, string[]>, meta: Map<string, string>, siteUrl: string, comments: NormalizedComment[], convertPostContent: Convert): NormalizedItem {
  const date = dateOf(item);
  const modified = gmtDate(item.modifiedGmt) ?? gmtDate(item.modified);
  const authors = creditedLogins(item);
  const normalized: NormalizedItem = {
    sourceId: item.id,
    postType: item.postType,
    status: item.status || 'draft',
    slug: decodeSlug(item.slug),
    title: item.title,
    ...(item.link !== '' ? { link: item.link } : {}),
    content: [],
    ...(item.excerpt.trim() !== '' ? { excerpt: item.excerpt } : {}),
    ...(date ? { date } : {}),
    ...(modified ? { modified } : {}),
    ...(authors[0] ? { author: authors[0] } : {}),
    authors,
    categories: item.terms.filter((term) => term.taxonomy === 'category').map((term) => term.name),
    tags: item.terms.filter((term) => term.taxonomy === 'post_tag').map((term) => term.name),
    terms: item.terms.filter((term) => term.taxonomy !== 'nav_menu' && term.taxonomy !== coAuthorTaxonomy).map((term) => ({ taxonomy: term.taxonomy, slug: term.slug, name: term.name })),
    meta: metaRecord(metaValues, metaValue),
    ...(meta.get('_thumbnail_id') ? { featuredImage: meta.get('_thumbnail_id')!.trim() } : {}),
    ...(item.parent !== '' && item.parent !== '0' ? { parent: item.parent } : {}),
    ...(item.menuOrder !== '' && item.menuOrder !== '0' ? { menuOrder: Number(item.menuOrder) } : {}),
    ...(item.sticky === '1' ? { sticky: true } : {}),
    ...(item.password !== '' ? { passwordProtected: true as const } : {}),
    comments,
    warnings: [],
  };
  const footnotes = meta.get('footnotes');
  return withContent(normalized, item.content, { siteUrl, ...(footnotes ? { footnotes } : {}) }, convertPostContent);
}

function menuItemOf(item: WxrItem, meta: Map<string, string>, siteUrl: string): NormalizedMenuItem | undefined {
  const menu = item.terms.find((term) => term.taxonomy === 'nav_menu');
  if (!menu) return undefined;
  const type = meta.get('_menu_item_type') ?? 'custom';
  const objectId = (meta.get('_menu_item_object_id') ?? '').trim();
  const object = meta.get('_menu_item_object') ?? '';
  const parent = (meta.get('_menu_item_menu_item_parent') ?? '0').trim();
  const classes = metaValue(meta.get('_menu_item_classes') ?? '');
  const cssClasses = (Array.isArray(classes) ? classes : [classes]).filter((name): name is string => typeof name === 'string' && /^[A-Za-z0-9_-]+$/.test(name)).join(' ');
  const link: NormalizedMenuItem['link'] =
    type === 'post_type' ? { kind: 'post', sourceId: objectId } : type === 'taxonomy' ? { kind: 'term', taxonomy: object, sourceId: objectId } : { kind: 'custom', url: absoluteUrl(meta.get('_menu_item_url') ?? '', siteUrl) };
  const target = meta.get('_menu_item_target') ?? '';
  // WordPress.com exports list an item once per menu holding it, under one id: ids are kept per menu.
  return {
    sourceId: `${menu.slug}/${item.id}`,
    menu: { slug: decodeSlug(menu.slug), name: menu.name || menu.slug },
    label: item.title,
    ...(parent !== '' && parent !== '0' ? { parent: `${menu.slug}/${parent}` } : {}),
    order: Number(item.menuOrder) || 0,
    link,
    ...(target !== '' ? { target } : {}),
    ...(item.excerpt.trim() !== '' ? { titleAttribute: item.excerpt.trim() } : {}),
    ...(cssClasses !== '' ? { cssClasses } : {}),
    ...(item.content.trim() !== '' ? { description: item.content.trim() } : {}),
  };
}

/** A custom link as a menu keeps it: an absolute URL; `#` and relative ones resolved against the site. */
function absoluteUrl(url: string, siteUrl: string): string {
  try {
    return new URL(url.trim() || '/', `${siteUrl || 'http://localhost'}/`).toString();
  } catch {
    return `${siteUrl}/`;
  }
}

export const wxrSource: ImportSource = {
  id: 'wxr',
  name: 'WordPress export file (WXR)',
  analyze: (input) => analyzeWxr(input),
  fetchContent: (input) => fetchWxr(input),
};
