/**
 * Classic editor content: HTML in which blank lines separate paragraphs and single newlines break
 * lines, as WordPress's wpautop reads it when it shows the post. Shortcodes that begin a line become
 * their blocks; a link alone in its paragraph becomes an embed, as WordPress shows it.
 */
import type { PortableTextBlock, PortableTextTextBlock } from '../../content/value-types.ts';
import type { Conversion } from './conversion.ts';
import type { Element } from './dom.ts';
import { FlowWriter, plainInline } from './flow.ts';
import { embedBlock } from './media.ts';
import { markShortcodes, writeShortcodePlaceholder } from './shortcodes.ts';
import type { Shape } from './text.ts';

/** A paragraph that is nothing but an address, which WordPress turns into an embed (oEmbed). */
function autoEmbedUrl(block: PortableTextBlock): string | undefined {
  if (block._type !== 'block') return undefined;
  const text = block as PortableTextTextBlock;
  const only = text.children.length === 1 ? text.children[0] : undefined;
  if (text.style !== 'normal' || text.listItem || !only || only._type !== 'span' || (only.marks as string[]).length > 0) return undefined;
  const url = String(only.text).trim();
  return /^https?:\/\/[^\s<>"]+$/.test(url) ? url : undefined;
}

export function convertClassic(conversion: Conversion, html: string, shape: Shape = { style: 'normal' }): PortableTextBlock[] {
  const marked = markShortcodes(html, 'classic');
  const writer = new FlowWriter(conversion, 'classic');
  const placeholders = (element: Element, target: FlowWriter): void => void writeShortcodePlaceholder(element, marked.shortcodes, target);
  writer.html(marked.html, { ...plainInline, placeholders }, shape);
  writer.flush(shape);
  return writer.blocks.map((block) => {
    const url = autoEmbedUrl(block);
    return url === undefined ? block : embedBlock(conversion, url, []);
  });
}
