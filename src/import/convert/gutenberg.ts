/**
 * Block editor content: the block comments are parsed by WordPress's own parser, then each block is
 * converted by its handler. A block's HTML is walked with a placeholder element where each inner block
 * sits, so wrappers (a quote's `<blockquote>`, a list's `<ul>`) shape what their inner blocks become.
 */
import { parse } from '@wordpress/block-serialization-default-parser';
import { attr } from './dom.ts';
import { placeholderTag, plainInline, type FlowWriter, type PlaceholderResolver } from './flow.ts';
import { markShortcodes, writeShortcodePlaceholder } from './shortcodes.ts';
import { handlerFor } from './blocks.ts';
import type { Shape } from './text.ts';

/** A block as WordPress's parser gives it (the package does not export the type). */
export type ParsedBlock = ReturnType<typeof parse>[number];

export function isBlockMarkup(html: string): boolean {
  return /<!--\s+wp:[a-z]/.test(html);
}

export function parseBlocks(html: string): ParsedBlock[] {
  return parse(html);
}

/**
 * A block's own HTML with a placeholder element where each inner block goes and where each shortcode
 * WordPress renders stands, and the resolver that converts what a placeholder stands for.
 */
export function blockMarkup(block: ParsedBlock): { html: string; placeholders: PlaceholderResolver } {
  let inner = 0;
  const withBlocks = block.innerContent.map((part) => (part === null ? `<${placeholderTag} data-block="${inner++}"></${placeholderTag}>` : part)).join('');
  const { html, shortcodes } = markShortcodes(withBlocks, 'rendered');
  const placeholders: PlaceholderResolver = (element, target, shape) => {
    if (writeShortcodePlaceholder(element, shortcodes, target)) return;
    const innerBlock = block.innerBlocks[Number(attr(element, 'data-block'))];
    if (innerBlock) writeBlock(innerBlock, target, shape);
  };
  return { html, placeholders };
}

/** Walks a block's own HTML, converting each inner block where its placeholder is. */
export function writeBlockHtml(block: ParsedBlock, writer: FlowWriter, shape: Shape): void {
  const { html, placeholders } = blockMarkup(block);
  writer.html(html, { ...plainInline, placeholders }, shape);
  writer.flush(shape);
}

/** Writes a block; classic HTML between blocks (no name) is read as the classic block is. */
export function writeBlock(block: ParsedBlock, writer: FlowWriter, shape: Shape): void {
  handlerFor(block.blockName ?? 'core/freeform')(closedBlock(block, writer), writer, shape);
}

const delimiter = /<!--\s+\/?wp:/;

/**
 * A block whose closing comment is missing gets, from WordPress's parser, all the markup after it as
 * its HTML, the following blocks included, which the parser also returns on their own. Only the part
 * before the next block comment is the block's.
 */
function closedBlock(block: ParsedBlock, writer: FlowWriter): ParsedBlock {
  const cut = block.innerBlocks.length === 0 ? block.innerHTML.search(delimiter) : -1;
  if (cut === -1) return block;
  writer.conversion.warn('block:unclosed', 'A block has no closing comment; its content is taken up to the next block');
  const innerHTML = block.innerHTML.slice(0, cut);
  return { ...block, innerHTML, innerContent: [innerHTML] };
}

export function writeBlocks(blocks: readonly ParsedBlock[], writer: FlowWriter, shape: Shape = { style: 'normal' }): void {
  for (const block of blocks) writeBlock(block, writer, shape);
}

/**
 * A block written back as block markup, for blocks kept with their source. Attributes are escaped the
 * way WordPress escapes them, so the JSON cannot end the comment or be read as markup.
 */
export function serializeBlock(block: ParsedBlock): string {
  if (block.blockName === null) return block.innerHTML;
  const name = block.blockName.startsWith('core/') ? block.blockName.slice('core/'.length) : block.blockName;
  const attributes = block.attrs && Object.keys(block.attrs).length > 0 ? ` ${escapeAttributes(JSON.stringify(block.attrs))}` : '';
  if (block.innerContent.length === 0) return `<!-- wp:${name}${attributes} /-->`;
  let inner = 0;
  const content = block.innerContent.map((part) => (part === null ? serializeBlock(block.innerBlocks[inner++] as ParsedBlock) : part)).join('');
  return `<!-- wp:${name}${attributes} -->${content}<!-- /wp:${name} -->`;
}

function escapeAttributes(json: string): string {
  return json
    .replace(/--/g, '\\u002d\\u002d')
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\\"/g, '\\u0022');
}
