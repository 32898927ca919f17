import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { AppError } from '../../core/errors.ts';
import type { WxrAuthor, WxrChannel, WxrItem, WxrRecord, WxrTerm } from './records.ts';

/**
 * Reads a WordPress export (WXR) as a stream of records: the channel (site title, URL, version), then
 * authors, terms and items as they come. saxes parses it event by event, so memory holds one record
 * at a time whatever the file's size. A DOCTYPE is refused outright: entity declarations (expansion
 * bombs, external entities) have no place in an export, and saxes then expands no entity beyond XML's five.
 */

/** WXR versions WordPress has written (1.0 in 2.x, 1.1 in 3.0, 1.2 since 3.1). */
export const wxrVersions = ['1.0', '1.1', '1.2'] as const;

/** The largest text one element may hold (a post's content): a bound on memory per record. */
const maxTextLength = 32 * 1024 * 1024;

const wordpressNs = /^https?:\/\/wordpress\.org\/export\/1\.[0-2]\/$/;
const excerptNs = /^https?:\/\/wordpress\.org\/export\/1\.[0-2]\/excerpt\/$/;
const contentNs = 'http://purl.org/rss/1.0/modules/content/';
const dcNs = 'http://purl.org/dc/elements/1.1/';

/** The file is not a WordPress export Folio can read: a 400 naming the problem. */
export function badExport(message: string): AppError {
  return new AppError('VALIDATION_ERROR', message, { issues: [{ path: 'file', message }] });
}

/** An element name as the reader matches it: `wp:post_id`, `content:encoded`, or a plain RSS name. */
function qualified(tag: SaxesTagNS): string {
  const uri = tag.uri;
  if (wordpressNs.test(uri)) return `wp:${tag.local}`;
  if (excerptNs.test(uri)) return `excerpt:${tag.local}`;
  if (uri === contentNs) return `content:${tag.local}`;
  if (uri === dcNs) return `dc:${tag.local}`;
  return uri === '' ? tag.local : `other:${tag.local}`;
}

type Open = { name: string; attributes: Record<string, string> };

const authorFields: Record<string, keyof WxrAuthor> = {
  'wp:author_id': 'id',
  'wp:author_login': 'login',
  'wp:author_email': 'email',
  'wp:author_display_name': 'displayName',
  'wp:author_first_name': 'firstName',
  'wp:author_last_name': 'lastName',
};

/** Term elements of the three shapes (wp:category, wp:tag, wp:term) onto one term. */
const termFields: Record<string, keyof WxrTerm> = {
  'wp:term_id': 'id',
  'wp:category_nicename': 'slug',
  'wp:tag_slug': 'slug',
  'wp:term_slug': 'slug',
  'wp:category_parent': 'parent',
  'wp:term_parent': 'parent',
  'wp:cat_name': 'name',
  'wp:tag_name': 'name',
  'wp:term_name': 'name',
  'wp:category_description': 'description',
  'wp:tag_description': 'description',
  'wp:term_description': 'description',
  'wp:term_taxonomy': 'taxonomy',
};

const itemFields: Record<string, keyof WxrItem> = {
  title: 'title',
  link: 'link',
  guid: 'guid',
  'content:encoded': 'content',
  'excerpt:encoded': 'excerpt',
  'wp:post_id': 'id',
  'wp:post_date': 'date',
  'wp:post_date_gmt': 'dateGmt',
  'wp:post_modified': 'modified',
  'wp:post_modified_gmt': 'modifiedGmt',
  'wp:post_name': 'slug',
  'wp:status': 'status',
  'wp:post_parent': 'parent',
  'wp:menu_order': 'menuOrder',
  'wp:post_type': 'postType',
  'wp:post_password': 'password',
  'wp:is_sticky': 'sticky',
  'wp:attachment_url': 'attachmentUrl',
};

const channelFields: Record<string, keyof WxrChannel> = {
  title: 'title',
  link: 'link',
  description: 'description',
  language: 'language',
  'wp:wxr_version': 'version',
  'wp:base_site_url': 'baseSiteUrl',
  'wp:base_blog_url': 'baseBlogUrl',
};

/**
 * The records of the export in `source`, in file order. The channel record comes first, once its
 * version is known (before the first author, term or item); a file that is not a readable WXR fails
 * with a 400 before any record after the fault is yielded.
 */
export async function* readWxr(source: Readable | AsyncIterable<Buffer | string>): AsyncGenerator<WxrRecord> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const queue: WxrRecord[] = [];
  const stack: Open[] = [];
  let text = '';
  let sawRoot = false;
  let sawChannel = false;
  const channel: WxrChannel = { title: '', link: '', description: '', language: '', version: '', baseSiteUrl: '', baseBlogUrl: '' };
  let channelSent = false;
  let author: WxrAuthor | undefined;
  let term: (WxrTerm & { shape: string }) | undefined;
  let item: WxrItem | undefined;
  let meta: { key: string; value: string } | undefined;
  let comment = false;

  const sendChannel = () => {
    if (channelSent) return;
    if (channel.version === '') throw badExport('Not a WordPress export: the file names no WXR version (<wp:wxr_version>)');
    if (!(wxrVersions as readonly string[]).includes(channel.version)) {
      throw badExport(`Unknown WXR version ${JSON.stringify(channel.version.slice(0, 40))}; Folio reads versions ${wxrVersions.join(', ')}`);
    }
    channelSent = true;
    queue.push({ kind: 'channel', channel: { ...channel } });
  };

  parser.on('doctype', () => {
    throw badExport('The file has a DOCTYPE: entity declarations are refused (a WordPress export has none)');
  });
  parser.on('opentag', (tag) => {
    const name = qualified(tag as SaxesTagNS);
    const attributes: Record<string, string> = {};
    for (const [key, attribute] of Object.entries((tag as SaxesTagNS).attributes)) attributes[key] = attribute.value;
    const depth = stack.length;
    if (depth === 0) {
      sawRoot = true;
      if (name !== 'rss') throw badExport(`Not a WordPress export: the root element is <${tag.name}>, not <rss>`);
    } else if (depth === 1 && name === 'channel') {
      sawChannel = true;
    } else if (depth === 2 && sawChannel) {
      if (name === 'wp:author') {
        sendChannel();
        author = { id: '', login: '', email: '', displayName: '', firstName: '', lastName: '' };
      } else if (name === 'wp:category' || name === 'wp:tag' || name === 'wp:term') {
        sendChannel();
        const taxonomy = name === 'wp:category' ? 'category' : name === 'wp:tag' ? 'post_tag' : '';
        term = { id: '', taxonomy, slug: '', parent: '', name: '', description: '', shape: name };
      } else if (name === 'item') {
        sendChannel();
        item = emptyItem();
      }
    } else if (item && name === 'wp:postmeta') {
      meta = { key: '', value: '' };
    } else if (item && name === 'wp:comment') {
      comment = true;
    } else if (item && name === 'category' && depth === 3) {
      item.terms.push({ taxonomy: attributes.domain ?? 'category', slug: attributes.nicename ?? '', name: '' });
    }
    stack.push({ name, attributes });
    text = '';
  });
  const addText = (chunk: string) => {
    if (text.length + chunk.length > maxTextLength) throw badExport(`An element holds more than ${maxTextLength} characters of text`);
    text += chunk;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    const open = stack.pop()!;
    const name = open.name;
    const value = text;
    text = '';
    const depth = stack.length;
    if (depth === 2 && sawChannel && !author && !term && !item && Object.hasOwn(channelFields, name)) {
      channel[channelFields[name]!] = value.trim();
    } else if (author) {
      if (depth === 2) {
        queue.push({ kind: 'author', author });
        author = undefined;
      } else if (Object.hasOwn(authorFields, name)) author[authorFields[name]!] = value.trim();
    } else if (term) {
      if (depth === 2) {
        const { shape: _shape, ...done } = term;
        queue.push({ kind: 'term', term: done });
        term = undefined;
      } else if (name === 'wp:termmeta' || name === 'wp:meta_key' || name === 'wp:meta_value') {
        // Term meta is not kept: Folio's terms have no custom fields.
      } else if (Object.hasOwn(termFields, name)) term[termFields[name]!] = name === 'wp:term_name' || name === 'wp:cat_name' || name === 'wp:tag_name' || name.endsWith('description') ? value : value.trim();
    } else if (item) {
      if (depth === 2) {
        // WordPress's own default for an item that names no type.
        if (item.postType === '') item.postType = 'post';
        queue.push({ kind: 'item', item });
        item = undefined;
      } else if (meta) {
        if (name === 'wp:meta_key') meta.key = value.trim();
        else if (name === 'wp:meta_value') meta.value = value;
        else if (name === 'wp:postmeta') {
          if (meta.key !== '') item.meta.push(meta);
          meta = undefined;
        }
      } else if (comment) {
        if (name === 'wp:comment') {
          comment = false;
          item.commentCount++;
        }
      } else if (depth === 3 && name === 'category') {
        item.terms[item.terms.length - 1]!.name = value;
      } else if (depth === 3 && name === 'dc:creator') {
        if (value.trim() !== '') item.creators.push(value.trim());
      } else if (depth === 3 && Object.hasOwn(itemFields, name)) {
        const field = itemFields[name]!;
        (item as unknown as Record<string, string>)[field] = field === 'content' || field === 'excerpt' || field === 'title' ? value : value.trim();
      }
    } else if (depth === 1 && name === 'channel') {
      sendChannel();
    }
  });

  const decoder = new StringDecoder('utf8');
  const fail = (error: unknown): never => {
    if (error instanceof AppError) throw error;
    throw badExport(`Malformed XML: ${(error as Error).message}`);
  };
  let sawBytes = false;
  for await (const chunk of source) {
    const piece = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (piece.length === 0) continue;
    if (!sawBytes && piece.trim() !== '') sawBytes = true;
    try {
      parser.write(piece);
    } catch (error) {
      fail(error);
    }
    while (queue.length > 0) yield queue.shift()!;
  }
  if (!sawBytes) throw badExport('The file is empty');
  try {
    parser.write(decoder.end());
    parser.close();
  } catch (error) {
    fail(error);
  }
  if (!sawRoot) throw badExport('Not XML: the file holds no element');
  if (!sawChannel) throw badExport('Not a WordPress export: the file has no <channel>');
  while (queue.length > 0) yield queue.shift()!;
}

function emptyItem(): WxrItem {
  return {
    id: '',
    title: '',
    link: '',
    guid: '',
    content: '',
    excerpt: '',
    date: '',
    dateGmt: '',
    modified: '',
    modifiedGmt: '',
    slug: '',
    status: '',
    parent: '',
    menuOrder: '',
    postType: '',
    password: '',
    sticky: '',
    attachmentUrl: '',
    creators: [],
    terms: [],
    meta: [],
    commentCount: 0,
  };
}
