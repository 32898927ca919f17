/**
 * The shapes entry values take on the wire, declared once: the code uses them, and
 * `GET /schema?format=typescript` (src/schema/typescript.ts) copies this file's text into its output,
 * so it holds declarations only, with no imports.
 */

export type EntryStatus = 'draft' | 'published' | 'scheduled';

/**
 * A media reference of an image or file field, the one shape they are stored and returned in (a bare
 * media id or URL given as input becomes `{id}` or `{url}`). At least one of `id` and `url` is present.
 */
export interface MediaReference {
  id?: string;
  url?: string;
  alt?: string;
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
