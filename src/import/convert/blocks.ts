/**
 * Handlers for the blocks whose meaning is not all in their HTML: containers that become typed
 * blocks (buttons, gallery, columns, group, cover, media and text), blocks whose content lives in
 * their attributes or in post meta (embeds, files, spacers, footnotes, reusable blocks), and blocks
 * WordPress renders on the server, which are kept with their source.
 */
import type { PortableTextBlock, PortableTextObject } from '../../content/value-types.ts';
import { attr, byTag, childrenOf, find, hasClass, isElement, parseHtml, textContent, type Element, type Node } from './dom.ts';
import { convertClassic } from './classic.ts';
import { enclosingLink } from './elements.ts';
import { plainInline, type FlowWriter } from './flow.ts';
import { blockMarkup, serializeBlock, writeBlockHtml, writeBlocks, type ParsedBlock } from './gutenberg.ts';
import { imageBlock, videoBlock } from './media.ts';
import { writeShortcodeText } from './shortcodes.ts';
import type { Shape } from './text.ts';

export type BlockHandler = (block: ParsedBlock, writer: FlowWriter, shape: Shape) => void;

type Attributes = Record<string, unknown>;

function attributesOf(block: ParsedBlock): Attributes {
  return (block.attrs ?? {}) as Attributes;
}

function stringAttribute(block: ParsedBlock, name: string): string | undefined {
  const value = attributesOf(block)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Attributes worth keeping on a typed block, those the block has. */
function pick(block: ParsedBlock, names: readonly string[]): Attributes {
  const attributes = attributesOf(block);
  return Object.fromEntries(names.filter((name) => attributes[name] !== undefined && attributes[name] !== null).map((name) => [name, attributes[name]]));
}

/** The block's own markup parsed (placeholders where inner blocks go) and a way to convert parts of it. */
function blockTree(block: ParsedBlock, writer: FlowWriter): { root: Element | undefined; convert: (nodes: Node[]) => PortableTextBlock[] } {
  const { html, placeholders } = blockMarkup(block);
  const root = parseHtml(html).find(isElement);
  return { root, convert: (parts) => writer.convert(parts, { ...plainInline, placeholders }) };
}

/** The inner blocks alone, converted into a nested writer. */
function innerContent(block: ParsedBlock, writer: FlowWriter): PortableTextBlock[] {
  const nested = writer.nested();
  writeBlocks(block.innerBlocks, nested);
  return nested.blocks;
}

function captionOf(root: Element | undefined, convert: (nodes: Node[]) => PortableTextBlock[]): PortableTextBlock[] {
  const figcaption = root && childrenOf(root).find((child): child is Element => isElement(child) && child.tagName === 'figcaption');
  return figcaption ? convert(childrenOf(figcaption)) : [];
}

const button: BlockHandler = (block, writer) => {
  const root = parseHtml(block.innerHTML).find(isElement);
  const link = root && (root.tagName === 'a' || root.tagName === 'button' ? root : byTag(root, 'a', 'button'));
  const fields = Object.fromEntries(
    ['href', 'target', 'rel', 'title'].flatMap((name) => {
      const value = link && attr(link, name);
      return value === undefined ? [] : [[name, value]];
    }),
  );
  const text = textContent(link ?? root ?? []).replace(/\s+/g, ' ').trim();
  writer.push({ _type: 'button', _key: writer.conversion.key(), text, ...fields, ...pick(block, ['width']) });
};

const buttons: BlockHandler = (block, writer) => {
  writer.push({ _type: 'buttons', _key: writer.conversion.key(), buttons: innerContent(block, writer), ...pick(block, ['layout']) });
};

/** A gallery: its images (inner image blocks, or the list of older galleries) and its own caption. */
const gallery: BlockHandler = (block, writer) => {
  const { root, convert } = blockTree(block, writer);
  const caption = captionOf(root, convert);
  const content = root ? convert(childrenOf(root).filter((child) => !(isElement(child) && child.tagName === 'figcaption'))) : [];
  const images = content.filter((item) => item._type === 'image');
  const others = content.filter((item) => item._type !== 'image');
  writer.push({
    _type: 'gallery',
    _key: writer.conversion.key(),
    images,
    ...pick(block, ['columns', 'linkTo', 'imageCrop', 'sizeSlug', 'align']),
    ...(caption.length > 0 ? { caption } : {}),
  });
  writer.push(...others);
};

const columns: BlockHandler = (block, writer) => {
  writer.push({ _type: 'columns', _key: writer.conversion.key(), columns: innerContent(block, writer), ...pick(block, ['verticalAlignment', 'isStackedOnMobile', 'align']) });
};

const column: BlockHandler = (block, writer) => {
  writer.push({ _type: 'column', _key: writer.conversion.key(), content: innerContent(block, writer), ...pick(block, ['width', 'verticalAlignment']) });
};

/** Group, row and stack: a container for layout; its wrapper's tag (section, header…) is kept. */
const group: BlockHandler = (block, writer) => {
  const { root, convert } = blockTree(block, writer);
  const content = root ? convert(childrenOf(root)) : innerContent(block, writer);
  const layout = (attributesOf(block).layout as { type?: unknown } | undefined)?.type;
  writer.push({
    _type: 'group',
    _key: writer.conversion.key(),
    content,
    ...(typeof layout === 'string' ? { layout } : {}),
    ...(root && root.tagName !== 'div' ? { tagName: root.tagName } : {}),
    ...pick(block, ['align']),
  });
};

const cover: BlockHandler = (block, writer) => {
  const { root, convert } = blockTree(block, writer);
  const inner = root && find(root, (element) => hasClass(element, 'wp-block-cover__inner-container'));
  const image = root && find(root, (element) => element.tagName === 'img' && hasClass(element, 'wp-block-cover__image-background'));
  const video = root && byTag(root, 'video');
  // Older covers hold their text right in the wrapper, beside the background media.
  const content = inner ? convert(childrenOf(inner)) : root ? convert(childrenOf(root).filter((child) => child !== image && child !== video && !(isElement(child) && child.tagName === 'span' && textContent(child).trim() === ''))) : [];
  const url = stringAttribute(block, 'url') ?? (image && attr(image, 'src')) ?? (video && attr(video, 'src'));
  const alt = stringAttribute(block, 'alt') ?? (image && attr(image, 'alt'));
  writer.push({
    _type: 'cover',
    _key: writer.conversion.key(),
    ...(url ? { url: writer.conversion.mediaUrl(url), mediaType: stringAttribute(block, 'backgroundType') ?? (video ? 'video' : 'image') } : {}),
    ...(alt ? { alt } : {}),
    ...(typeof attributesOf(block).id === 'number' ? { attachmentId: attributesOf(block).id } : {}),
    content,
    ...pick(block, ['dimRatio', 'overlayColor', 'customOverlayColor', 'gradient', 'focalPoint', 'minHeight', 'minHeightUnit', 'hasParallax', 'isRepeated', 'contentPosition', 'align']),
  });
};

const mediaText: BlockHandler = (block, writer) => {
  const { root, convert } = blockTree(block, writer);
  const figure = root && find(root, (element) => hasClass(element, 'wp-block-media-text__media'));
  const contentElement = root && find(root, (element) => hasClass(element, 'wp-block-media-text__content'));
  const image = figure && byTag(figure, 'img');
  const video = figure && byTag(figure, 'video');
  const media = image
    ? imageBlock(writer.conversion, image, { link: enclosingLink(image, figure), caption: [] })
    : video
      ? videoBlock(writer.conversion, video, [])
      : undefined;
  writer.push({
    _type: 'mediaText',
    _key: writer.conversion.key(),
    ...(media ? { media: withAttachmentId(media, block, 'mediaId') } : {}),
    mediaPosition: stringAttribute(block, 'mediaPosition') ?? 'left',
    content: contentElement ? convert(childrenOf(contentElement)) : innerContent(block, writer),
    ...pick(block, ['mediaWidth', 'mediaLink', 'isStackedOnMobile', 'verticalAlignment', 'imageFill', 'focalPoint', 'align']),
  });
};

function withAttachmentId(media: PortableTextObject, block: ParsedBlock, name = 'id'): PortableTextObject {
  const id = attributesOf(block)[name];
  return media.attachmentId === undefined && typeof id === 'number' ? { ...media, attachmentId: id } : media;
}

/** Image, audio and video blocks read from their HTML, with the attachment id of their attributes. */
const mediaBlock: BlockHandler = (block, writer, shape) => {
  const nested = writer.nested();
  writeBlockHtml(block, nested, shape);
  writer.push(...nested.blocks.map((media) => (['image', 'audio', 'video'].includes(media._type) ? withAttachmentId(media as PortableTextObject, block) : media)));
};

const embed: BlockHandler = (block, writer) => {
  const { root, convert } = blockTree(block, writer);
  const caption = captionOf(root, convert);
  const wrapper = root && find(root, (element) => hasClass(element, 'wp-block-embed__wrapper'));
  const url = stringAttribute(block, 'url') ?? (wrapper ? textContent(wrapper).trim() : '');
  const provider = stringAttribute(block, 'providerNameSlug') ?? (block.blockName?.startsWith('core-embed/') ? block.blockName.slice('core-embed/'.length) : undefined);
  writer.push({
    _type: 'embed',
    _key: writer.conversion.key(),
    url,
    ...(provider ? { provider } : {}),
    ...pick(block, ['type', 'align']),
    ...(caption.length > 0 ? { caption } : {}),
  });
};

/** A file link with its download button; both hrefs kept exactly. */
const file: BlockHandler = (block, writer) => {
  const root = parseHtml(block.innerHTML).find(isElement);
  const links = root ? [...childrenOf(root)].filter((child): child is Element => isElement(child) && child.tagName === 'a') : [];
  const downloadButton = links.find((link) => hasClass(link, 'wp-block-file__button'));
  const nameLink = links.find((link) => link !== downloadButton);
  const url = stringAttribute(block, 'href') ?? (nameLink && attr(nameLink, 'href')) ?? (downloadButton && attr(downloadButton, 'href')) ?? '';
  const text = (element: Element): string => textContent(element).replace(/\s+/g, ' ').trim();
  const nameHref = nameLink && attr(nameLink, 'href');
  const downloadHref = downloadButton && attr(downloadButton, 'href');
  const object = root && byTag(root, 'object');
  writer.push({
    _type: 'file',
    _key: writer.conversion.key(),
    url: writer.conversion.mediaUrl(url),
    ...(nameLink ? { fileName: text(nameLink) } : {}),
    ...(nameHref !== undefined ? { href: nameHref } : {}),
    ...(downloadButton && downloadHref !== undefined ? { downloadButton: { text: text(downloadButton), href: downloadHref } } : {}),
    ...(object ? { showPreview: true } : {}),
    ...(typeof attributesOf(block).id === 'number' ? { attachmentId: attributesOf(block).id } : {}),
  });
};

const spacer: BlockHandler = (block, writer) => {
  writer.push({ _type: 'spacer', _key: writer.conversion.key(), ...pick(block, ['height', 'width']) });
};

const html: BlockHandler = (block, writer) => {
  writer.conversion.warn('block:core/html', 'Custom HTML blocks are kept as raw HTML in "html" blocks');
  writer.push({ _type: 'html', _key: writer.conversion.key(), html: block.innerHTML.trim() });
};

const shortcode: BlockHandler = (block, writer) => writeShortcodeText(block.innerHTML, writer);

/** Footnotes live in the post's `footnotes` meta, which the caller passes; the block shows them. */
const footnotes: BlockHandler = (block, writer) => {
  const { conversion } = writer;
  let notes: unknown = [];
  try {
    notes = JSON.parse(conversion.options.footnotes ?? '[]');
  } catch {
    conversion.warn('footnotes:meta', 'The footnotes meta is not valid JSON; the footnotes block is kept with its raw value');
  }
  const list = Array.isArray(notes) ? (notes as { id?: unknown; content?: unknown }[]) : [];
  if (conversion.options.footnotes === undefined) conversion.warn('footnotes:missing', 'A footnotes block came without the post\'s footnotes meta; its notes are empty');
  writer.push({
    _type: 'footnotes',
    _key: conversion.key(),
    notes: list.map((note) => ({
      _type: 'footnote',
      _key: conversion.key(),
      id: String(note.id ?? ''),
      content: writer.convert(parseHtml(String(note.content ?? '')), plainInline),
    })),
    ...(conversion.options.footnotes !== undefined && !Array.isArray(notes) ? { raw: conversion.options.footnotes } : {}),
  });
};

/** A reusable block (a pattern synced across posts): kept as a reference, resolved to a section on import. */
const reusableBlock: BlockHandler = (block, writer) => {
  writer.push({ _type: 'reusableBlock', _key: writer.conversion.key(), ref: attributesOf(block).ref ?? null });
};

/**
 * A block Folio has no form for (one rendered by the server, or a plugin's): its name, attributes and
 * source kept, and what its markup and inner blocks hold converted as content.
 */
export const unknownBlock: BlockHandler = (block, writer, shape) => {
  const name = block.blockName ?? 'freeform';
  writer.conversion.warn(`block:${name}`, `The ${name} block has no Portable Text form; kept as a "wpBlock" block with its attributes and source`);
  const nested = writer.nested();
  writeBlockHtml(block, nested, shape);
  writer.push({
    _type: 'wpBlock',
    _key: writer.conversion.key(),
    blockName: name,
    attrs: attributesOf(block),
    source: serializeBlock(block),
    ...(nested.blocks.length > 0 ? { content: nested.blocks } : {}),
  });
};

/** Blocks whose HTML says all there is; their wrappers (lists, quotes, details) shape their inner blocks. */
const htmlBlocks = [
  'paragraph', 'heading', 'list', 'list-item', 'quote', 'pullquote', 'code', 'preformatted', 'verse', 'table',
  'separator', 'more', 'nextpage', 'details', 'subhead', 'text-columns', 'missing',
];

export const blockHandlers: Record<string, BlockHandler> = {
  ...Object.fromEntries(htmlBlocks.map((name) => [`core/${name}`, writeBlockHtml])),
  'core/image': mediaBlock,
  'core/audio': mediaBlock,
  'core/video': mediaBlock,
  'core/button': button,
  'core/buttons': buttons,
  'core/gallery': gallery,
  'core/columns': columns,
  'core/column': column,
  'core/group': group,
  'core/cover': cover,
  'core/media-text': mediaText,
  'core/embed': embed,
  'core/file': file,
  'core/spacer': spacer,
  'core/html': html,
  'core/shortcode': shortcode,
  'core/footnotes': footnotes,
  'core/block': reusableBlock,
  // The classic block: classic content, read as a classic post is.
  'core/freeform': (block, writer, shape) => {
    if (block.innerHTML.trim() !== '') writer.push(...convertClassic(writer.conversion, block.innerHTML, shape));
  },
};

/** The handler for a block name; legacy `core-embed/*` blocks are embeds, anything else unknown. */
export function handlerFor(name: string): BlockHandler {
  return blockHandlers[name] ?? (name.startsWith('core-embed/') ? embed : unknownBlock);
}
