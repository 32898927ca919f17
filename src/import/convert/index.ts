/**
 * WordPress post content (block editor markup or classic HTML) to Portable Text, for the import
 * (import.md §2: "block-editor markup and HTML are converted"). Nothing is dropped silently: what has no
 * Portable Text form is kept as a typed block with its raw source, and each kind of such loss of form
 * is reported once in `warnings`.
 */
import type { PortableTextBlock } from '../../content/value-types.ts';
import { convertClassic } from './classic.ts';
import { Conversion, type ConvertOptions } from './conversion.ts';
import { FlowWriter } from './flow.ts';
import { isBlockMarkup, parseBlocks, writeBlocks } from './gutenberg.ts';
import { parseHtml, textContent } from './dom.ts';

export type { ConvertOptions };

export interface ConvertedContent {
  blocks: PortableTextBlock[];
  warnings: string[];
}

export function convertPostContent(html: string, options: ConvertOptions = {}): ConvertedContent {
  const conversion = new Conversion(html, options);
  try {
    if (!isBlockMarkup(html)) return { blocks: convertClassic(conversion, html), warnings: conversion.warnings() };
    const writer = new FlowWriter(conversion, 'html');
    writeBlocks(parseBlocks(html), writer);
    return { blocks: writer.blocks, warnings: conversion.warnings() };
  } catch (error) {
    // Nesting deeper than the stack allows (thousands of levels, which no editor writes): the content
    // is kept whole as raw HTML rather than failing the post.
    if (!(error instanceof RangeError)) throw error;
    const fallback = new Conversion(html, options);
    fallback.warn('too-deep', 'The content is nested too deeply to convert; kept whole as raw HTML in an "html" block');
    return { blocks: [{ _type: 'html', _key: fallback.key(), html }], warnings: fallback.warnings() };
  }
}

/**
 * The text of a title or an excerpt, which Folio keeps as plain strings: tags dropped, entities
 * decoded once, whitespace collapsed.
 */
export function htmlToPlainText(html: string): string {
  return textContent(parseHtml(html), ' ').replace(/\s+/g, ' ').trim();
}
