import { defineSchema, type SchemaDefinition } from '@portabletext/editor';

/**
 * What Folio's Portable Text holds (src/content/portable-text.ts, src/import/convert/) and what the
 * editor offers. The editor's schema is Folio's own plus whatever else a value brings (a style,
 * decorator, list, annotation or object type a client or an import wrote): the editor must know a
 * type to keep it, and keeping everything that comes in is the point (decisions/0044).
 */

/** The styles the toolbar offers; Markdown and imports may also bring h1, h5, h6, verse, preformatted. */
export const offeredStyles = ['normal', 'h2', 'h3', 'h4', 'blockquote'] as const;

/** The decorators the toolbar offers: those Markdown and the importer write (sup, sub and highlight are kept, not offered). */
export const offeredDecorators = ['strong', 'em', 'code', 'underline', 'strike-through'] as const;

export const offeredLists = ['bullet', 'number'] as const;

/** Folio's block objects with an editor of their own; every other `_type` is a custom block, kept as it is. */
export const codeType = 'code';
export const imageType = 'image';
export const fileType = 'file';
export const linkType = 'link';

const folioStyles = ['normal', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'verse', 'preformatted'];
const folioDecorators = [...offeredDecorators, 'sup', 'sub', 'highlight'];
const folioBlockObjects = [codeType, imageType, fileType, 'break'];

/** The types a value uses beyond Folio's own, so the editor's schema can name them. */
export interface ValueTypes {
  styles: Set<string>;
  lists: Set<string>;
  decorators: Set<string>;
  annotations: Set<string>;
  blockObjects: Set<string>;
  inlineObjects: Set<string>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/** One pass over the blocks (at mount, or when a value arrives from outside): never per keystroke. */
export function typesOf(value: readonly unknown[] | undefined): ValueTypes {
  const types: ValueTypes = { styles: new Set(), lists: new Set(), decorators: new Set(), annotations: new Set(), blockObjects: new Set(), inlineObjects: new Set() };
  for (const block of records(value)) {
    const type = String(block._type);
    if (type !== 'block') {
      types.blockObjects.add(type);
      continue;
    }
    if (typeof block.style === 'string') types.styles.add(block.style);
    if (typeof block.listItem === 'string') types.lists.add(block.listItem);
    const markDefs = records(block.markDefs);
    for (const def of markDefs) types.annotations.add(String(def._type));
    const defKeys = new Set(markDefs.map((def) => def._key));
    for (const child of records(block.children)) {
      if (child._type !== 'span') types.inlineObjects.add(String(child._type));
      else for (const mark of Array.isArray(child.marks) ? child.marks : []) if (typeof mark === 'string' && !defKeys.has(mark)) types.decorators.add(mark);
    }
  }
  return types;
}

/** Folio's types joined with a value's: what a schema made from the result knows. */
export function withFolioTypes(types: ValueTypes): ValueTypes {
  const join = (own: readonly string[], extra: Set<string>) => new Set([...own, ...extra]);
  return {
    styles: join(folioStyles, types.styles),
    lists: join(offeredLists, types.lists),
    decorators: join(folioDecorators, types.decorators),
    annotations: join([linkType], types.annotations),
    blockObjects: join(folioBlockObjects, types.blockObjects),
    inlineObjects: new Set(types.inlineObjects),
  };
}

const named = (names: Set<string>) => [...names].map((name) => ({ name }));

const strings = (...names: string[]) => names.map((name) => ({ name, type: 'string' as const }));

/**
 * Fields of the types the editor itself writes: inserting and setting validate against them. Other
 * fields (an import's width, caption, link target) are not declared and pass through untouched.
 */
const ownFields: Record<string, ReturnType<typeof strings>> = {
  [codeType]: strings('code', 'language'),
  [imageType]: strings('id', 'url', 'alt'),
  [fileType]: strings('id', 'url', 'filename', 'mimeType'),
  [linkType]: strings('href'),
};

const withFields = (names: Set<string>) => [...names].map((name) => (ownFields[name] ? { name, fields: ownFields[name] } : { name }));

export function schemaFor(known: ValueTypes): SchemaDefinition {
  return defineSchema({
    // `normal` first: the editor's default style for a new block is the first one.
    styles: named(known.styles),
    lists: named(known.lists),
    decorators: named(known.decorators),
    annotations: withFields(known.annotations),
    blockObjects: withFields(known.blockObjects),
    inlineObjects: named(known.inlineObjects),
  });
}
