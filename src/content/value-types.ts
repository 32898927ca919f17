/**
 * The shapes entry values take on the wire, declared once: the code uses them, and
 * `GET /schema?format=typescript` (src/schema/typescript.ts) copies this file's text into its output,
 * so it holds declarations only, with no imports.
 */

export type EntryStatus = 'draft' | 'published' | 'scheduled';

/**
 * The value of an image or file field as returned. It is stored as `{id?, url?, alt?, caption?}` (a bare media
 * id or URL given as input becomes `{id}` or `{url}`); reads fill in the rest from the media library,
 * so a site needs no second request. `alt` is the entry's own, else the media item's; `caption` is the entry's own.
 */
export type MediaReference = LibraryMedia | MissingMedia | ExternalMedia;

/** An entry's search and social metadata, on collections whose supports has seo; unset members are null (false). */
export interface EntrySeo {
  title: string | null;
  description: string | null;
  /** An absolute http(s) URL. */
  canonical: string | null;
  noIndex: boolean;
  image: MediaReference | null;
}

/** An item of the media library, as it is now. */
export interface LibraryMedia {
  id: string;
  /** The file's current absolute URL. */
  url: string;
  alt?: string;
  caption?: string;
  /** Pixels; null when the file is not an image. */
  width: number | null;
  height: number | null;
  mimeType: string;
  missing?: never;
}

/** A media item deleted since: the value as stored, kept so an editor can see what was there. */
export interface MissingMedia {
  id: string;
  url?: string;
  alt?: string;
  caption?: string;
  width?: never;
  height?: never;
  mimeType?: never;
  missing: true;
}

/** A file outside the media library, by URL. */
export interface ExternalMedia {
  id?: never;
  url: string;
  alt?: string;
  caption?: string;
  width?: never;
  height?: never;
  mimeType?: never;
  missing?: never;
}

/** Any keyed Portable Text object: a custom block, an inline object or a mark definition. */
export interface PortableTextObject {
  _type: string;
  _key: string;
  [field: string]: unknown;
}

export interface PortableTextSpan {
  _type: 'span';
  _key: string;
  text: string;
  /** Decorator names (`strong`, `em`, `code`, `strike-through`) and keys of the block's markDefs. */
  marks: string[];
}

export interface PortableTextLink {
  _type: 'link';
  _key: string;
  href: string;
}

export interface PortableTextTextBlock {
  _type: 'block';
  _key: string;
  /** `normal`, `h1`..`h6` or `blockquote` from Markdown; clients may send other styles. */
  style: string;
  markDefs: Array<PortableTextLink | PortableTextObject>;
  children: Array<PortableTextSpan | PortableTextObject>;
  /** `bullet` or `number` from Markdown. */
  listItem?: string;
  /** List nesting depth, 1 for a top-level item. */
  level?: number;
}

export interface PortableTextCodeBlock {
  _type: 'code';
  _key: string;
  code: string;
  language?: string;
}

export interface PortableTextImageBlock {
  _type: 'image';
  _key: string;
  url: string;
  alt?: string;
  caption?: string;
}

/** A thematic break (Markdown `---`). */
export interface PortableTextBreakBlock {
  _type: 'break';
  _key: string;
}

export type PortableTextBlock =
  | PortableTextTextBlock
  | PortableTextCodeBlock
  | PortableTextImageBlock
  | PortableTextBreakBlock
  | PortableTextObject;
