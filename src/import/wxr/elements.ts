import type { WxrAuthor, WxrChannel, WxrComment, WxrItem, WxrRecord, WxrTerm } from './records.ts';

/**
 * What the elements of a WXR fill: the channel's fields, and the readers of its records (authors,
 * terms, items), one for each element that starts a record. Names are as `reader.ts` qualifies them.
 */

/** The fields of a record that hold an element's text. */
type TextField<R> = { [K in keyof R]: R[K] extends string ? K : never }[keyof R];

/** Element name → the field its text fills. */
type Fields<R> = Readonly<Record<string, TextField<R>>>;

const noProse: ReadonlySet<string> = new Set();

/**
 * Puts an element's text in the field it fills, if any: trimmed, but for the prose fields, whose
 * whitespace is the author's. Only the table's own names count (never `constructor` and the like).
 */
function fill<R>(record: R, fields: Fields<R>, name: string, text: string, prose = noProse): void {
  if (!Object.hasOwn(fields, name)) return;
  const field = fields[name]!;
  (record as Record<TextField<R>, string>)[field] = prose.has(field as string) ? text : text.trim();
}

const channelFields: Fields<WxrChannel> = {
  title: 'title',
  link: 'link',
  description: 'description',
  language: 'language',
  'wp:wxr_version': 'version',
  'wp:base_site_url': 'baseSiteUrl',
  'wp:base_blog_url': 'baseBlogUrl',
};

export function emptyChannel(): WxrChannel {
  return { title: '', link: '', description: '', language: '', version: '', baseSiteUrl: '', baseBlogUrl: '' };
}

/** A child of the channel closes (outside any record). */
export function fillChannel(channel: WxrChannel, name: string, text: string): void {
  fill(channel, channelFields, name, text);
}

/** An author, term or item being read: told of the elements inside its own, it gives the record once that closes. */
export interface RecordReader {
  /** An element opens inside the record; `child`: right inside the record's element. */
  open?(name: string, attributes: Readonly<Record<string, string>>, child: boolean): void;
  /** An element inside the record closes, with its text. */
  close(name: string, text: string, child: boolean): void;
  done(): WxrRecord;
}

const authorFields: Fields<WxrAuthor> = {
  'wp:author_id': 'id',
  'wp:author_login': 'login',
  'wp:author_email': 'email',
  'wp:author_display_name': 'displayName',
  'wp:author_first_name': 'firstName',
  'wp:author_last_name': 'lastName',
};

function readAuthor(): RecordReader {
  const author: WxrAuthor = { id: '', login: '', email: '', displayName: '', firstName: '', lastName: '' };
  return {
    close: (name, text) => fill(author, authorFields, name, text),
    done: () => ({ kind: 'author', author }),
  };
}

/**
 * Term elements of the three shapes (wp:category, wp:tag, wp:term) onto one term. Term meta
 * (wp:termmeta) is not read: Folio's terms have no custom fields.
 */
const termFields: Fields<WxrTerm> = {
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

const termProse: ReadonlySet<string> = new Set(['name', 'description']);

/** `taxonomy`: what the element's shape says (a wp:term names its own). */
function readTerm(taxonomy: string): RecordReader {
  const term: WxrTerm = { id: '', taxonomy, slug: '', parent: '', name: '', description: '' };
  return {
    close: (name, text) => fill(term, termFields, name, text, termProse),
    done: () => ({ kind: 'term', term }),
  };
}

const itemFields: Fields<WxrItem> = {
  title: 'title',
  link: 'link',
  guid: 'guid',
  'content:encoded': 'content',
  'excerpt:encoded': 'excerpt',
  'wp:post_id': 'id',
  'wp:post_date': 'date',
  'wp:post_date_gmt': 'dateGmt',
  pubDate: 'pubDate',
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

const itemProse: ReadonlySet<string> = new Set(['title', 'content', 'excerpt']);

const commentFields: Fields<WxrComment> = {
  'wp:comment_id': 'id',
  'wp:comment_author': 'author',
  'wp:comment_author_email': 'authorEmail',
  'wp:comment_author_url': 'authorUrl',
  'wp:comment_date': 'date',
  'wp:comment_date_gmt': 'dateGmt',
  'wp:comment_content': 'content',
  'wp:comment_approved': 'approved',
  'wp:comment_type': 'type',
  'wp:comment_parent': 'parent',
  'wp:comment_user_id': 'userId',
};

const commentProse: ReadonlySet<string> = new Set(['content']);

const emptyComment = (): WxrComment => ({ id: '', author: '', authorEmail: '', authorUrl: '', date: '', dateGmt: '', content: '', approved: '', type: '', parent: '', userId: '' });

/**
 * An item: its fields, its terms (`category` with `domain` and `nicename`), its authors
 * (`dc:creator`), its meta (`wp:postmeta`, a key and a value) and its comments (`wp:comment`, their
 * own `wp:commentmeta` passed over). Inside a meta or a comment, nothing else counts.
 */
function readItem(line: number): RecordReader {
  const item = emptyItem(line);
  let meta: { key: string; value: string } | undefined;
  let comment: WxrComment | undefined;
  let inCommentMeta = false;
  return {
    open(name, attributes, child) {
      if (comment) {
        if (name === 'wp:commentmeta') inCommentMeta = true;
      } else if (name === 'wp:postmeta') meta = { key: '', value: '' };
      else if (name === 'wp:comment') comment = emptyComment();
      else if (name === 'category' && child) item.terms.push({ taxonomy: attributes.domain ?? 'category', slug: attributes.nicename ?? '', name: '' });
    },
    close(name, text, child) {
      if (meta) {
        if (name === 'wp:meta_key') meta.key = text.trim();
        else if (name === 'wp:meta_value') meta.value = text;
        else if (name === 'wp:postmeta') {
          if (meta.key !== '') item.meta.push(meta);
          meta = undefined;
        }
      } else if (comment) {
        if (name === 'wp:commentmeta') inCommentMeta = false;
        else if (name === 'wp:comment') {
          item.comments.push(comment);
          comment = undefined;
        } else if (!inCommentMeta) fill(comment, commentFields, name, text, commentProse);
      } else if (child && name === 'category') {
        item.terms.at(-1)!.name = text;
      } else if (child && name === 'dc:creator') {
        if (text.trim() !== '') item.creators.push(text.trim());
      } else if (child) {
        fill(item, itemFields, name, text, itemProse);
      }
    },
    done: () => ({ kind: 'item', item }),
  };
}

function emptyItem(line: number): WxrItem {
  return {
    line,
    id: '',
    title: '',
    link: '',
    guid: '',
    content: '',
    excerpt: '',
    date: '',
    dateGmt: '',
    pubDate: '',
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
    comments: [],
  };
}

/** The channel's children that are records, by element: each starts a reader of its record, told the line it opens on. */
export const recordReaders: ReadonlyMap<string, (line: number) => RecordReader> = new Map([
  ['wp:author', readAuthor],
  ['wp:category', () => readTerm('category')],
  ['wp:tag', () => readTerm('post_tag')],
  ['wp:term', () => readTerm('')],
  ['item', readItem],
]);
