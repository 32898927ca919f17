/** What the WXR reader yields: the file's own records, text as written (normalized later by the source). */

export interface WxrChannel {
  title: string;
  link: string;
  description: string;
  language: string;
  version: string;
  baseSiteUrl: string;
  baseBlogUrl: string;
}

export interface WxrAuthor {
  id: string;
  login: string;
  email: string;
  displayName: string;
  firstName: string;
  lastName: string;
}

export interface WxrTerm {
  id: string;
  /** `category`, `post_tag`, `nav_menu` or a custom taxonomy's name. */
  taxonomy: string;
  slug: string;
  /** The parent's slug (categories) or id (terms), empty at the top. */
  parent: string;
  name: string;
  description: string;
}

export interface WxrItem {
  /** The line its `<item>` tag is on: how the report points at an item in the file. */
  line: number;
  id: string;
  title: string;
  link: string;
  guid: string;
  content: string;
  excerpt: string;
  date: string;
  dateGmt: string;
  /** RSS's own date of the item (RFC 822), the last resort when WordPress's are missing. */
  pubDate: string;
  modified: string;
  modifiedGmt: string;
  slug: string;
  status: string;
  parent: string;
  menuOrder: string;
  /** Empty when the item names none: duplicates.ts judges it partial, then gives it WordPress's default, `post`. */
  postType: string;
  password: string;
  sticky: string;
  attachmentUrl: string;
  /** `dc:creator`: author logins, in order. */
  creators: string[];
  terms: { taxonomy: string; slug: string; name: string }[];
  /** `wp:postmeta` in file order; a key may repeat. */
  meta: { key: string; value: string }[];
  /** `wp:comment`, in file order. */
  comments: WxrComment[];
}

/** A comment on an item, as WordPress exports it (its `wp:commentmeta` is not read). */
export interface WxrComment {
  id: string;
  author: string;
  authorEmail: string;
  authorUrl: string;
  date: string;
  dateGmt: string;
  /** The text as the commenter wrote it: lines, and the few tags WordPress lets commenters use. */
  content: string;
  /** `1` approved, `0` held, `spam`, `trash`, `post-trashed`. */
  approved: string;
  /** Empty for a comment; `pingback`, `trackback` or a plugin's own type otherwise. */
  type: string;
  /** The id of the comment it answers; `0` or empty at the top. */
  parent: string;
  /** The WordPress user who wrote it (an author's `wp:author_id`); `0` or empty for a visitor. */
  userId: string;
}

export type WxrRecord =
  | { kind: 'channel'; channel: WxrChannel }
  | { kind: 'author'; author: WxrAuthor }
  | { kind: 'term'; term: WxrTerm }
  | { kind: 'item'; item: WxrItem };
