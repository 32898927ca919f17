import type { Readable } from 'node:stream';
import type { Config } from '../../config.ts';
import type { PortableTextBlock } from '../../content/value-types.ts';

/**
 * The source extension interface (import.md "Source extension interface"): every platform Folio
 * imports from is one of these, registered by id. A source turns its input into normalized records;
 * everything after (collections, entries, terms, menus, bylines, the report) is the importer's and
 * the same for every source.
 */

/** What a source reads: an uploaded file, a site's URL (with a token), or an OAuth connection. */
export type SourceInput =
  | { type: 'file'; file: () => Promise<Readable>; filename: string }
  | { type: 'url'; url: string; token?: string }
  | { type: 'oauth'; url: string; accessToken: string };

export interface ProbeResult {
  sourceId: string;
  confidence: 'definite' | 'likely' | 'possible';
  detected: Record<string, unknown>;
}

/** What a source works with: the deployment's configuration (its outgoing rule, its API settings), and a signal to stop. */
export interface SourceContext {
  config: Config;
  signal?: AbortSignal;
}

/** What a probe may use: the deployment's configuration, and when the probe must have answered. */
export interface ProbeContext {
  config: Config;
  /** Epoch milliseconds: every probe of one request shares it. */
  deadline: number;
}

/** A custom field as the analysis found it: the type its values agree on, or `json` when they do not. */
export interface MetaFieldShape {
  key: string;
  type: 'string' | 'text' | 'integer' | 'number' | 'boolean' | 'json';
}

export interface PostTypeAnalysis {
  name: string;
  count: number;
  /** Whether any item has a parent of the same type (pages): the collection gets a `parent` reference. */
  hierarchical: boolean;
  hasMenuOrder: boolean;
  hasSticky: boolean;
  /** Comments on its items: its collection takes comments when there are any. */
  comments: number;
  /** Whether items carry Yoast or Rank Math meta: the collection gets `seo` support. Absent in analyses stored before it. */
  hasSeo?: boolean;
  metaFields: MetaFieldShape[];
}

/** What a source learns of its input before anything is written (the analysis step). */
export interface SourceAnalysis {
  site: { title: string; url: string; language?: string };
  /** Identifies the site: re-runs of the same source share it, so nothing is imported twice. */
  sourceKey: string;
  /** The source format's version, where it has one (WXR 1.0-1.2). */
  version?: string;
  postTypes: PostTypeAnalysis[];
  skipped: { postType: string; count: number; reason: string }[];
  attachments: { images: number; video: number; audio: number; other: number };
  authors: { login: string; displayName: string; email: string; posts: number }[];
  taxonomies: { name: string; hierarchical: boolean; terms: number }[];
  menus: { name: string; label: string; items: number }[];
  reusableBlocks: number;
  comments: number;
}

export interface AttachmentRef {
  sourceId: string;
  url: string;
  parentId?: string;
  /** What the media import puts on the media item (issue 16). */
  title?: string;
  alt?: string;
  caption?: string;
}

/** An author of the source: a byline is made or reused from it (keyed by `sourceId`). */
export interface NormalizedAuthor {
  sourceId: string;
  login: string;
  displayName: string;
  email?: string;
}

/** A term of a taxonomy; `parent` names the parent term's `sourceId`. */
export interface NormalizedTerm {
  /** The term's slug in the source: items and parents name terms by it. */
  sourceId: string;
  /** The source's numeric id, which menu items name. */
  termId?: string;
  taxonomy: string;
  slug: string;
  name: string;
  description?: string;
  parent?: string;
}

/** A menu item; its target is a post or term of the same import by source id, or a custom URL. */
export interface NormalizedMenuItem {
  sourceId: string;
  menu: { slug: string; name: string };
  label: string;
  parent?: string;
  order: number;
  link: { kind: 'post'; sourceId: string } | { kind: 'term'; taxonomy: string; sourceId: string } | { kind: 'custom'; url: string };
  target?: string;
  titleAttribute?: string;
  cssClasses?: string;
  description?: string;
}

/**
 * The normalized item of import.md §2, with what a lossless import needs besides: the page
 * hierarchy, menu order, every date, every term by taxonomy and the untouched source for items
 * whose content could not be converted.
 */
export interface NormalizedItem {
  sourceId: string;
  postType: string;
  status: string;
  slug: string;
  title: string;
  /** Its address on the source site (WXR `<link>`): where redirects lead from (docs/decisions/0057). */
  link?: string;
  content: PortableTextBlock[];
  excerpt?: string;
  /** Published date (GMT), ISO 8601; absent when the source has no usable date (the import then dates the entry). */
  date?: string;
  modified?: string;
  /** The first author's login. */
  author?: string;
  authors: string[];
  categories: string[];
  tags: string[];
  /** Every term by taxonomy (`category`, `post_tag`, custom ones), by term slug. */
  terms: { taxonomy: string; slug: string; name: string }[];
  /** Custom fields by key; a key the source repeats on the item holds the array of its values, in order. */
  meta: Record<string, unknown>;
  featuredImage?: string;
  parent?: string;
  menuOrder?: number;
  sticky?: boolean;
  /** The source asks a password to read it: imported as a draft, so it is not made public (its password is not kept). */
  passwordProtected?: true;
  /** Its comments, parents before their replies. */
  comments: NormalizedComment[];
  /** Warnings of the conversion (a shortcode kept raw, an encoding fixed). */
  warnings: string[];
  /** Set when the content could not be converted: the item is saved as a draft with its original content. */
  failure?: { cause: string; original: string };
}

/** A comment on an item: who wrote it, when, in what moderation state, and what it answers. */
export interface NormalizedComment {
  sourceId: string;
  /** The source id of the comment it answers, one of the same item's. */
  parent?: string;
  status: 'approved' | 'pending' | 'spam' | 'trash';
  authorName: string;
  authorEmail?: string;
  authorUrl?: string;
  /** The source author who wrote it while signed in, by login: mapped to a person of the site like the items' authors. */
  authorLogin?: string;
  /** GMT, ISO 8601; absent when the source has none (the import dates it). */
  date?: string;
  /** The Markdown subset Folio's comments are written in. */
  body: string;
  /** The body rendered to safe HTML when the source's comment is normalised, so the import's transaction only writes. */
  bodyHtml: string;
}

export type ImportRecord =
  | { kind: 'author'; author: NormalizedAuthor }
  | { kind: 'term'; term: NormalizedTerm }
  | { kind: 'item'; item: NormalizedItem }
  | { kind: 'menuItem'; menuItem: NormalizedMenuItem }
  | { kind: 'section'; section: { sourceId: string; slug: string; title: string; content: PortableTextBlock[] } }
  | { kind: 'attachment'; attachment: AttachmentRef }
  /** An item of the source that is not imported (a duplicate of another, say): the report names it as skipped, with the reason. */
  | { kind: 'skipped'; sourceId: string; title: string; postType: string; reason: string };

export interface ImportSource {
  id: string;
  name: string;
  probe?(url: string, context: ProbeContext): Promise<ProbeResult | null>;
  analyze(input: SourceInput, context: SourceContext): Promise<SourceAnalysis>;
  /** The records of the input one at a time: authors and terms first, then items in source order. */
  fetchContent(input: SourceInput, options: SourceContext): AsyncIterable<ImportRecord>;
}
