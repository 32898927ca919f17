/**
 * Shortcodes: `[name attr="value"]` or `[name]content[/name]`. The ones WordPress itself renders
 * become the blocks they show (caption → image with caption, audio, video, embed, gallery); any other
 * is kept as a `shortcode` block with its name, attributes, raw source and converted content, and a
 * warning, since Folio cannot run it.
 */
import type { PortableTextBlock } from '../../content/value-types.ts';
import type { Conversion } from './conversion.ts';
import { attr, descendants, isElement, parseHtml, type Element, type Node } from './dom.ts';
import { enclosingLink } from './elements.ts';
import { placeholderTag, plainInline, type FlowWriter } from './flow.ts';
import { embedBlock, imageBlock } from './media.ts';

export interface Shortcode {
  name: string;
  /** Named attributes by name, positional ones by their position ("0", "1"…). */
  attributes: Record<string, string>;
  /** What an enclosing shortcode wraps; undefined for a self-closing one. */
  content?: string;
  source: string;
  start: number;
  end: number;
}

// Attributes hold no `]` (as in WordPress) and are bounded, so a stray `[` costs a bounded look-ahead.
const openingTag = /\[([A-Za-z][\w-]*)(?=[\s\]/])([^\]]{0,4000}?)(\/)?\]/g;
const closingTag = /\[\/([A-Za-z][\w-]*)\]/g;
const attributePattern = /([\w-]+)\s*=\s*"([^"]*)"|([\w-]+)\s*=\s*'([^']*)'|([\w-]+)\s*=\s*([^\s'"]+)|"([^"]*)"|'([^']*)'|(\S+)/g;

/** An attribute value as WordPress prints it into HTML, read back the way a browser would: entities decoded once. */
function decodeAttribute(value: string): string {
  const element = parseHtml(`<i data-value="${value.replace(/"/g, '&quot;')}"></i>`)[0];
  return element && isElement(element) ? (attr(element, 'data-value') ?? value) : value;
}

function parseAttributes(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  let position = 0;
  for (const match of text.matchAll(attributePattern)) {
    const name = match[1] ?? match[3] ?? match[5];
    const value = match[2] ?? match[4] ?? match[6];
    if (name !== undefined && value !== undefined) attributes[name.toLowerCase()] = decodeAttribute(value);
    else if (match[0] !== '/') attributes[String(position++)] = decodeAttribute(match[7] ?? match[8] ?? match[9] ?? '');
  }
  return attributes;
}

/**
 * Which shortcodes count: all of them (a shortcode block); in a classic post those WordPress renders
 * anywhere and others only where they begin a line (inside a sentence an unknown one reads as text);
 * in block markup only those WordPress renders.
 */
export type ShortcodeScope = 'all' | 'classic' | 'rendered';

/** The shortcodes WordPress itself registers, which it renders wherever they stand. */
const renderedShortcodes = new Set(['caption', 'wp_caption', 'gallery', 'audio', 'video', 'embed', 'playlist']);

/** The shortcodes in a text, in order and not overlapping, none inside an HTML tag. */
export function findShortcodes(text: string, scope: ShortcodeScope): Shortcode[] {
  const found: Shortcode[] = [];
  const closings = closingPositions(text);
  const insideTag = tagTracker(text);
  openingTag.lastIndex = 0;
  for (let match = openingTag.exec(text); match !== null; match = openingTag.exec(text)) {
    const start = match.index;
    const name = match[1] as string;
    const escaped = text[start - 1] === '[' && text[openingTag.lastIndex] === ']';
    const rendered = renderedShortcodes.has(name.toLowerCase());
    const counts = scope === 'all' || rendered || (scope === 'classic' && beginsLine(text, start));
    if (escaped || !counts || insideTag(start)) continue;
    const attributes = parseAttributes(match[2] ?? '');
    let end = openingTag.lastIndex;
    let content: string | undefined;
    const closeAt = match[3] ? undefined : closings.next(name, end);
    if (closeAt !== undefined) {
      content = text.slice(end, closeAt);
      end = closeAt + `[/${name}]`.length;
    }
    found.push({ name, attributes, ...(content === undefined ? {} : { content }), source: text.slice(start, end), start, end });
    openingTag.lastIndex = end;
  }
  return found;
}

/** Whether a position is inside an HTML tag (`<a title="[x]">`), asked for positions in increasing order. */
function tagTracker(text: string): (position: number) => boolean {
  let scanned = 0;
  let inside = false;
  return (position) => {
    for (; scanned < position; scanned++) {
      if (text[scanned] === '<') inside = true;
      else if (text[scanned] === '>') inside = false;
    }
    return inside;
  };
}

/**
 * The HTML with a placeholder element where each shortcode stands, and the shortcodes. One that spans
 * other placeholders (an inner block) is left as text, since its parts belong to different blocks.
 */
export function markShortcodes(html: string, scope: ShortcodeScope): { html: string; shortcodes: Shortcode[] } {
  if (!html.includes('[')) return { html, shortcodes: [] };
  const shortcodes = findShortcodes(html, scope).filter((shortcode) => !shortcode.source.includes(`<${placeholderTag}`));
  let marked = '';
  let from = 0;
  shortcodes.forEach((shortcode, index) => {
    marked += `${html.slice(from, shortcode.start)}<${placeholderTag} data-shortcode="${index}"></${placeholderTag}>`;
    from = shortcode.end;
  });
  return { html: marked + html.slice(from), shortcodes };
}

/** Writes the shortcode a placeholder stands for; false when the element stands for none. */
export function writeShortcodePlaceholder(element: Element, shortcodes: readonly Shortcode[], writer: FlowWriter): boolean {
  const index = attr(element, 'data-shortcode');
  const shortcode = index === undefined ? undefined : shortcodes[Number(index)];
  if (shortcode) writeShortcode(shortcode, writer);
  return shortcode !== undefined;
}

/** Whether only spaces (and perhaps a `<p>`) stand between the line's start and the position. */
function beginsLine(text: string, position: number): boolean {
  let at = position - 1;
  const skipSpaces = (): void => {
    while (at >= 0 && (text[at] === ' ' || text[at] === '\t')) at--;
  };
  skipSpaces();
  if (at >= 2 && text.slice(at - 2, at + 1).toLowerCase() === '<p>') {
    at -= 3;
    skipSpaces();
  }
  return at < 0 || text[at] === '\n' || text[at] === '\r';
}

/** Where each shortcode's closing tags are, so finding the closing tag of an opener costs no new scan. */
function closingPositions(text: string): { next: (name: string, after: number) => number | undefined } {
  const byName = new Map<string, number[]>();
  for (const match of text.matchAll(closingTag)) {
    const name = match[1] as string;
    const positions = byName.get(name) ?? [];
    positions.push(match.index);
    byName.set(name, positions);
  }
  // Openers come in order, so each name's list is consumed from the front.
  const cursor = new Map<string, number>();
  return {
    next(name, after) {
      const positions = byName.get(name) ?? [];
      let index = cursor.get(name) ?? 0;
      while (index < positions.length && (positions[index] as number) < after) index++;
      cursor.set(name, index);
      return positions[index];
    },
  };
}

const truthy = (value: string | undefined): boolean => value !== undefined && /^(1|on|true|yes)$/i.test(value);

const audioExtensions = ['mp3', 'ogg', 'oga', 'm4a', 'wav', 'wma', 'flac'];
const videoExtensions = ['mp4', 'm4v', 'webm', 'ogv', 'wmv', 'flv', 'mov'];

/** A media shortcode's address: `src`, else the first of the per-format attributes WordPress accepts. */
function mediaSource(attributes: Record<string, string>, extensions: readonly string[]): string {
  return attributes.src ?? extensions.map((extension) => attributes[extension]).find((value) => value !== undefined) ?? '';
}

function playback(attributes: Record<string, string>): Record<string, boolean> {
  return Object.fromEntries(['autoplay', 'loop', 'muted'].filter((name) => truthy(attributes[name])).map((name) => [name, true]));
}

/** The top-level node of a fragment that holds the element. */
function topLevelOf(element: Element, nodes: readonly Node[]): Node | undefined {
  let node: Node = element;
  while (!nodes.includes(node) && node.parentNode && 'tagName' in node.parentNode) node = node.parentNode as Element;
  return nodes.includes(node) ? node : undefined;
}

/** `[caption]<a><img></a> Text[/caption]`: the image, with its caption as blocks (they carry links). */
function captionBlock(shortcode: Shortcode, writer: FlowWriter): PortableTextBlock | undefined {
  const nodes = parseHtml(shortcode.content ?? '');
  const image = descendants(nodes).find((element) => element.tagName === 'img');
  if (!image) return undefined;
  const media = topLevelOf(image, nodes);
  const captionHtml = shortcode.attributes.caption;
  const caption = captionHtml !== undefined ? writer.convert(parseHtml(captionHtml), plainInline) : writer.convert(nodes.filter((node) => node !== media), plainInline);
  const align = shortcode.attributes.align?.replace(/^align/, '');
  const block = imageBlock(writer.conversion, image, { link: enclosingLink(image), caption, align });
  const attachment = /^attachment_(\d+)$/.exec(shortcode.attributes.id ?? '');
  return attachment && block.attachmentId === undefined ? { ...block, attachmentId: Number(attachment[1]) } : block;
}

function galleryBlock(shortcode: Shortcode, conversion: Conversion): PortableTextBlock {
  conversion.warn('shortcode:gallery', 'A [gallery] shortcode names its images by attachment id; kept as a gallery block with `attachmentIds` for the media import to resolve');
  const ids = (shortcode.attributes.ids ?? shortcode.attributes.include ?? '').split(',').map((id) => Number(id.trim())).filter((id) => Number.isInteger(id) && id > 0);
  const columns = Number(shortcode.attributes.columns);
  return {
    _type: 'gallery',
    _key: conversion.key(),
    images: [],
    attachmentIds: ids,
    ...(Number.isInteger(columns) && columns > 0 ? { columns } : {}),
    attributes: shortcode.attributes,
    source: shortcode.source,
  };
}

/** Writes the blocks a shortcode stands for. */
export function writeShortcode(shortcode: Shortcode, writer: FlowWriter): void {
  const { conversion } = writer;
  const { attributes } = shortcode;
  switch (shortcode.name.toLowerCase()) {
    case 'caption':
    case 'wp_caption': {
      const block = captionBlock(shortcode, writer);
      if (block) return writer.push(block);
      break;
    }
    case 'gallery':
      return writer.push(galleryBlock(shortcode, conversion));
    case 'audio':
      return writer.push({ _type: 'audio', _key: conversion.key(), url: conversion.mediaUrl(mediaSource(attributes, audioExtensions)), ...playback(attributes) });
    case 'video': {
      const poster = attributes.poster;
      const size = Object.fromEntries(['width', 'height'].filter((name) => Number(attributes[name]) > 0).map((name) => [name, Number(attributes[name])]));
      return writer.push({
        _type: 'video',
        _key: conversion.key(),
        url: conversion.mediaUrl(mediaSource(attributes, videoExtensions)),
        ...(poster ? { poster: conversion.mediaUrl(poster) } : {}),
        ...size,
        ...playback(attributes),
      });
    }
    case 'embed':
      return writer.push(embedBlock(conversion, (shortcode.content ?? attributes.src ?? '').trim(), []));
    default:
      break;
  }
  conversion.warn(`shortcode:${shortcode.name}`, `The [${shortcode.name}] shortcode cannot run in Folio; kept as a "shortcode" block with its name, attributes and source`);
  const content = shortcode.content?.trim() ? writer.convert(parseHtml(shortcode.content), plainInline) : [];
  writer.push({
    _type: 'shortcode',
    _key: conversion.key(),
    name: shortcode.name,
    attributes,
    source: shortcode.source,
    ...(content.length > 0 ? { content } : {}),
  });
}

/** A shortcode block's text: the text between its shortcodes as paragraphs, each shortcode as its blocks. */
export function writeShortcodeText(text: string, writer: FlowWriter): void {
  const { html, shortcodes } = markShortcodes(text, 'all');
  const shape = { style: 'normal' };
  writer.html(html, { ...plainInline, placeholders: (element, target) => void writeShortcodePlaceholder(element, shortcodes, target) }, shape);
  writer.flush(shape);
}
