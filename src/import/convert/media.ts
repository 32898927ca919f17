/**
 * Media blocks: images (Folio's `image` type, extended), audio, video and embeds. Each keeps its
 * address, its caption as blocks (captions carry links), and the WordPress attachment id when the
 * markup names one, so a media import can swap the address for Folio's own.
 */
import type { PortableTextBlock, PortableTextObject } from '../../content/value-types.ts';
import type { Conversion } from './conversion.ts';
import { attr, byTag, classes, hasAttr, type Element } from './dom.ts';

export interface LinkInfo {
  href: string;
  target?: string | undefined;
  rel?: string | undefined;
}

function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== ''));
}

/** The attachment id WordPress writes into an image's class (`wp-image-123`). */
export function attachmentIdOf(element: Element): number | undefined {
  const name = classes(element).find((value) => /^wp-(image|video|audio)-\d+$/.test(value));
  return name === undefined ? undefined : Number(name.replace(/\D+/g, ''));
}

export function alignmentOf(element: Element | undefined): string | undefined {
  const name = element && classes(element).find((value) => /^align(left|right|center|wide|full|none)$/.test(value));
  return name?.slice('align'.length);
}

function sizeOf(element: Element, name: 'width' | 'height'): number | undefined {
  const value = Number(attr(element, name));
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

function captionField(caption: readonly PortableTextBlock[]): Record<string, unknown> {
  return caption.length > 0 ? { caption } : {};
}

export function imageBlock(
  conversion: Conversion,
  image: Element,
  { link, caption, align }: { link?: LinkInfo | undefined; caption: readonly PortableTextBlock[]; align?: string | undefined },
): PortableTextObject {
  const source = attr(image, 'src') ?? attr(image, 'data-src') ?? '';
  return {
    _type: 'image',
    _key: conversion.key(),
    url: conversion.mediaUrl(source),
    alt: attr(image, 'alt') ?? '',
    ...defined({
      title: attr(image, 'title'),
      width: sizeOf(image, 'width'),
      height: sizeOf(image, 'height'),
      align: align ?? alignmentOf(image) ?? alignmentOf(image.parentNode && 'tagName' in image.parentNode ? image.parentNode : undefined),
      attachmentId: attachmentIdOf(image),
      href: link?.href,
      linkTarget: link?.target,
      linkRel: link?.rel,
    }),
    ...captionField(caption),
  };
}

/** The address of an `<audio>` or `<video>`: its `src`, else its first `<source>`. */
function mediaSource(conversion: Conversion, element: Element): string {
  const source = attr(element, 'src') ?? (byTag(element, 'source') && attr(byTag(element, 'source') as Element, 'src')) ?? '';
  return conversion.mediaUrl(source);
}

function playbackFlags(element: Element): Record<string, boolean> {
  return Object.fromEntries(['controls', 'autoplay', 'loop', 'muted', 'playsinline'].filter((name) => hasAttr(element, name)).map((name) => [name, true]));
}

export function audioBlock(conversion: Conversion, audio: Element, caption: readonly PortableTextBlock[], extra: Record<string, unknown> = {}): PortableTextObject {
  return { _type: 'audio', _key: conversion.key(), url: mediaSource(conversion, audio), ...playbackFlags(audio), ...extra, ...captionField(caption) };
}

export function videoBlock(conversion: Conversion, video: Element, caption: readonly PortableTextBlock[], extra: Record<string, unknown> = {}): PortableTextObject {
  const poster = attr(video, 'poster');
  return {
    _type: 'video',
    _key: conversion.key(),
    url: mediaSource(conversion, video),
    ...defined({ poster: poster === undefined ? undefined : conversion.mediaUrl(poster) }),
    ...playbackFlags(video),
    ...extra,
    ...captionField(caption),
  };
}

/** An embedded page (a video site, a post elsewhere), kept by its address for the front end to render. */
export function embedBlock(conversion: Conversion, url: string, caption: readonly PortableTextBlock[], extra: Record<string, unknown> = {}): PortableTextObject {
  return { _type: 'embed', _key: conversion.key(), url, ...extra, ...captionField(caption) };
}
