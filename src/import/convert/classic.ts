/**
 * Classic editor content: HTML in which blank lines separate paragraphs and single newlines break
 * lines, as WordPress's wpautop reads it when it shows the post.
 */
import type { PortableTextBlock } from '../../content/value-types.ts';
import type { Conversion } from './conversion.ts';
import { FlowWriter, plainInline } from './flow.ts';
import type { Shape } from './text.ts';

export function convertClassic(conversion: Conversion, html: string, shape: Shape = { style: 'normal' }): PortableTextBlock[] {
  const writer = new FlowWriter(conversion, 'classic');
  writer.html(html, plainInline, shape);
  writer.flush(shape);
  return writer.blocks;
}
