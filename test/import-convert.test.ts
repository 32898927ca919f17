import { describe, expect, it } from 'vitest';
import { portableTextIssues } from '../src/content/portable-text.ts';
import type { PortableTextBlock, PortableTextTextBlock } from '../src/content/value-types.ts';
import { convertPostContent } from '../src/import/convert/index.ts';

/** Text blocks as `{style, text}` with links written `[text](href)`, to compare without keys. */
function outline(blocks: PortableTextBlock[]): unknown[] {
  return blocks.map((block) => {
    if (block._type !== 'block') return { type: block._type };
    const text = block as PortableTextTextBlock;
    const hrefs = new Map(text.markDefs.map((def) => [def._key, String(def.href)]));
    const content = text.children
      .map((child) => {
        const marks = (child.marks as string[]) ?? [];
        const link = marks.map((mark) => hrefs.get(mark)).find((href) => href !== undefined);
        const decorators = marks.filter((mark) => !hrefs.has(mark));
        const inner = decorators.reduce((value, decorator) => `<${decorator}>${value}</${decorator}>`, String(child.text));
        return link === undefined ? inner : `[${inner}](${link})`;
      })
      .join('');
    return { style: text.style, ...(text.listItem ? { listItem: text.listItem, level: text.level } : {}), text: content };
  });
}

function convert(html: string) {
  const result = convertPostContent(html);
  expect(portableTextIssues(result.blocks)).toEqual([]);
  return result;
}

describe('convertPostContent: the first blocks', () => {
  it('converts block editor paragraphs, headings and links, hrefs exactly as written', () => {
    const html = [
      '<!-- wp:heading {"level":3} -->\n<h3 class="wp-block-heading">A <em>title</em></h3>\n<!-- /wp:heading -->',
      '<!-- wp:paragraph -->\n<p>See <a href="https://example.com/a?b=1&amp;c=2#d" target="_blank">this   page</a> &amp; more.</p>\n<!-- /wp:paragraph -->',
    ].join('\n\n');
    const { blocks, warnings } = convert(html);
    expect(outline(blocks)).toEqual([
      { style: 'h3', text: 'A <em>title</em>' },
      { style: 'normal', text: 'See [this page](https://example.com/a?b=1&c=2#d) & more.' },
    ]);
    const link = (blocks[1] as PortableTextTextBlock).markDefs[0];
    expect(link).toMatchObject({ _type: 'link', href: 'https://example.com/a?b=1&c=2#d', target: '_blank' });
    expect(warnings).toEqual([]);
  });

  it('reads classic posts the way wpautop does: blank lines split paragraphs, single newlines break lines', () => {
    const { blocks } = convert('First line\nsecond line\n\n<h2>Heading</h2>\nThird <strong>bold\n\nstill bold</strong>');
    expect(outline(blocks)).toEqual([
      { style: 'normal', text: 'First line\nsecond line' },
      { style: 'h2', text: 'Heading' },
      { style: 'normal', text: 'Third <strong>bold</strong>' },
      { style: 'normal', text: '<strong>still bold</strong>' },
    ]);
  });

  it('gives no blocks and no warnings for empty content', () => {
    expect(convert('')).toEqual({ blocks: [], warnings: [] });
    expect(convert('  \n\n ')).toEqual({ blocks: [], warnings: [] });
  });
});
