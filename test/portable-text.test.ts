import { describe, expect, it } from 'vitest';
import { markdownLimits } from '../src/content/markdown-limits.ts';
import {
  markdownToPortableText,
  normalizePortableText,
  portableTextIssues,
  portableTextToPlainText,
} from '../src/content/portable-text.ts';
import type { PortableTextBlock, PortableTextTextBlock } from '../src/content/value-types.ts';

const keyPattern = /^[a-z0-9]{12}$/;

/** Blocks without any `_key`, and marks naming link hrefs instead of markDef keys, to compare shapes. */
function shape(blocks: PortableTextBlock[]): unknown[] {
  return blocks.map((block) => {
    const { _key: _ignored, ...rest } = block;
    if (block._type !== 'block') return rest;
    const text = block as PortableTextTextBlock;
    const hrefs = new Map(text.markDefs.map((def) => [def._key, `link:${String(def.href)}`]));
    return {
      ...rest,
      markDefs: text.markDefs.map((def) => def.href),
      children: text.children.map((child) => ({
        text: child.text,
        marks: (child.marks as string[]).map((mark) => hrefs.get(mark) ?? mark),
      })),
    };
  });
}

function allKeys(blocks: PortableTextBlock[]): string[] {
  return blocks.flatMap((block) => {
    if (block._type !== 'block') return [block._key];
    const text = block as PortableTextTextBlock;
    return [block._key, ...text.markDefs.map((def) => def._key), ...text.children.map((child) => child._key)];
  });
}

const span = (text: string, ...marks: string[]) => ({ text, marks });
const paragraph = (...children: unknown[]) => ({ _type: 'block', style: 'normal', markDefs: [], children });

describe('markdownToPortableText', () => {
  it('gives no blocks for an empty or blank string', () => {
    expect(markdownToPortableText('')).toEqual([]);
    expect(markdownToPortableText('  \n\n ')).toEqual([]);
  });

  it('turns paragraphs and every heading level into styled text blocks', () => {
    const markdown = 'One\n\n# H1\n\n## H2\n\n### H3\n\n#### H4\n\n##### H5\n\n###### H6\n\nSetext\n===\n\nTwo';
    expect(shape(markdownToPortableText(markdown))).toEqual([
      paragraph(span('One')),
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((style) => ({ ...paragraph(span(style.toUpperCase())), style })),
      { ...paragraph(span('Setext')), style: 'h1' },
      paragraph(span('Two')),
    ]);
  });

  it('writes emphasis, strong, inline code and strike-through as decorators, nested ones combined', () => {
    const blocks = markdownToPortableText('Plain *em* **strong _both_** `a < b` ~~gone~~ end');
    expect(shape(blocks)).toEqual([
      paragraph(
        span('Plain '),
        span('em', 'em'),
        span(' '),
        span('strong ', 'strong'),
        span('both', 'strong', 'em'),
        span(' '),
        span('a < b', 'code'),
        span(' '),
        span('gone', 'strike-through'),
        span(' end'),
      ),
    ]);
  });

  it('references a link markDef from the marks of the linked spans', () => {
    const [block] = markdownToPortableText('See [the **docs**](https://example.com/docs) or <https://other.example>.');
    const text = block as PortableTextTextBlock;
    expect(text.markDefs).toEqual([
      { _type: 'link', _key: expect.stringMatching(keyPattern), href: 'https://example.com/docs' },
      { _type: 'link', _key: expect.stringMatching(keyPattern), href: 'https://other.example' },
    ]);
    const [docs, other] = text.markDefs.map((def) => def._key);
    expect(text.children.map((child) => [child.text, child.marks])).toEqual([
      ['See ', []],
      ['the ', [docs]],
      ['docs', ['strong', docs]],
      [' or ', []],
      ['https://other.example', [other]],
      ['.', []],
    ]);
  });

  it('resolves reference-style links', () => {
    expect(shape(markdownToPortableText('Read [this][ref].\n\n[ref]: https://example.com/ref'))).toEqual([
      { ...paragraph(span('Read '), span('this', 'link:https://example.com/ref'), span('.')), markDefs: ['https://example.com/ref'] },
    ]);
  });

  it('turns bullet and numbered lists into list blocks with a level per nesting depth', () => {
    const markdown = '- one\n- two\n  - two a\n    1. deep\n    2. deeper\n  - two b\n- three\n\n1. first\n2. second';
    const item = (text: string, listItem: string, level: number) => ({ ...paragraph(span(text)), listItem, level });
    expect(shape(markdownToPortableText(markdown))).toEqual([
      item('one', 'bullet', 1),
      item('two', 'bullet', 1),
      item('two a', 'bullet', 2),
      item('deep', 'number', 3),
      item('deeper', 'number', 3),
      item('two b', 'bullet', 2),
      item('three', 'bullet', 1),
      item('first', 'number', 1),
      item('second', 'number', 1),
    ]);
  });

  it('keeps every paragraph of a loose list item and the state of task items', () => {
    const markdown = '- first\n\n  more of first\n- [x] done\n- [ ] open';
    const item = (text: string) => ({ ...paragraph(span(text)), listItem: 'bullet', level: 1 });
    expect(shape(markdownToPortableText(markdown))).toEqual([item('first'), item('more of first'), item('[x] done'), item('[ ] open')]);
  });

  it('styles block quotes, nested ones included, as blockquote', () => {
    expect(shape(markdownToPortableText('> quoted *text*\n>\n> > inner\n\nafter'))).toEqual([
      { ...paragraph(span('quoted '), span('text', 'em')), style: 'blockquote' },
      { ...paragraph(span('inner')), style: 'blockquote' },
      paragraph(span('after')),
    ]);
  });

  it('turns fenced and indented code into code blocks with the language when given', () => {
    const blocks = markdownToPortableText('```ts title="x.ts"\nconst a = 1 &amp; 2;\n\nreturn a;\n```\n\n    indented <b>\n\n```\nplain\n```');
    expect(shape(blocks)).toEqual([
      { _type: 'code', code: 'const a = 1 &amp; 2;\n\nreturn a;', language: 'ts' },
      { _type: 'code', code: 'indented <b>' },
      { _type: 'code', code: 'plain' },
    ]);
  });

  it('turns images into image blocks, splitting the paragraph around them', () => {
    const blocks = markdownToPortableText('![A *red* door](https://example.com/door.png "Door")\n\nBefore ![icon](/i.svg) after');
    expect(shape(blocks)).toEqual([
      { _type: 'image', url: 'https://example.com/door.png', alt: 'A red door' },
      paragraph(span('Before')),
      { _type: 'image', url: '/i.svg', alt: 'icon' },
      paragraph(span('after')),
    ]);
  });

  it('keeps hard line breaks as newlines inside the span', () => {
    expect(shape(markdownToPortableText('first  \nsecond\\\nthird\nsame line'))).toEqual([paragraph(span('first\nsecond\nthird\nsame line'))]);
  });

  it('turns horizontal rules into break blocks', () => {
    expect(shape(markdownToPortableText('above\n\n---\n\nbelow'))).toEqual([paragraph(span('above')), { _type: 'break' }, paragraph(span('below'))]);
  });

  it('keeps HTML as plain text, never as markup', () => {
    expect(shape(markdownToPortableText('<div class="x">block</div>\n\nA <b>bold</b> word'))).toEqual([
      paragraph(span('<div class="x">block</div>')),
      paragraph(span('A <b>bold</b> word')),
    ]);
  });

  it('decodes character references and keeps escaped characters literal', () => {
    expect(shape(markdownToPortableText('Tom &amp; Jerry &lt;3 &#169; \\*not em\\* &copy;'))).toEqual([
      paragraph(span('Tom & Jerry <3 © *not em* &copy;')),
    ]);
  });

  it('writes each table row as a paragraph with cells separated by bars', () => {
    expect(shape(markdownToPortableText('| Name | Size |\n|---|---|\n| **a** | 1 |'))).toEqual([
      paragraph(span('Name | Size')),
      paragraph(span('a', 'strong'), span(' | 1')),
    ]);
  });
});

describe('Portable Text keys', () => {
  const markdown = '# Same\n\nSame [a](https://a.example) and [b](https://b.example)\n\nSame\n\n- Same\n- Same\n\n---\n\n---\n\n![x](/x.png)\n\n```\nSame\n```';

  it('are the same every time the same Markdown is converted', () => {
    expect(markdownToPortableText(markdown)).toEqual(markdownToPortableText(markdown));
  });

  it('are short lower-case keys, unique across the whole document even for repeated content', () => {
    const keys = allKeys(markdownToPortableText(markdown));
    expect(keys.length).toBeGreaterThan(15);
    for (const key of keys) expect(key).toMatch(keyPattern);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('of a block stay when other text changes after it and differ when its position changes', () => {
    const [first] = markdownToPortableText('Intro\n\nMiddle');
    const [again, next] = markdownToPortableText('Intro\n\nChanged');
    expect(again?._key).toBe(first?._key);
    const [moved] = markdownToPortableText('New start\n\nIntro').slice(1);
    expect(moved?._key).not.toBe(first?._key);
    expect(next?._key).not.toBe(first?._key);
  });
});

describe('portableTextIssues', () => {
  it('finds nothing wrong with converted Markdown or minimal valid blocks', () => {
    expect(portableTextIssues(markdownToPortableText('# A\n\n- [b](https://b.example)\n\n```\nc\n```\n\n![d](/d.png)\n\n---'))).toEqual([]);
    expect(portableTextIssues([])).toEqual([]);
    expect(portableTextIssues([{ _type: 'block', children: [{ _type: 'span', text: 'x' }] }, { _type: 'callout', tone: 'info' }])).toEqual([]);
  });

  it('names each problem by its path in the value', () => {
    const value = [
      'text',
      { children: [] },
      { _type: 'block', _key: 'a', children: 'no' },
      { _type: 'block', _key: 'a', markDefs: {}, level: 0, children: [{ _type: 'span' }, { _type: 'span', text: 1, marks: [1] }, null] },
      { _type: 'block', _key: 7, children: [{ _type: 'span', _key: 's', text: '' }, { _type: 'span', _key: 's', text: '' }] },
      { _type: 'code', code: 3, language: 1 },
      { _type: 'image', alt: false },
      { _type: '' },
    ];
    expect(portableTextIssues(value)).toEqual([
      { path: '0', message: 'Must be an object' },
      { path: '1._type', message: 'Must be a non-empty string' },
      { path: '2.children', message: 'Must be an array of spans' },
      { path: '3._key', message: 'Duplicate key "a"' },
      { path: '3.level', message: 'Must be an integer of at least 1' },
      { path: '3.markDefs', message: 'Must be an array' },
      { path: '3.children.0.text', message: 'Must be a string' },
      { path: '3.children.1.text', message: 'Must be a string' },
      { path: '3.children.1.marks', message: 'Must be an array of strings' },
      { path: '3.children.2', message: 'Must be an object' },
      { path: '4._key', message: 'Must be a non-empty string' },
      { path: '4.children.1._key', message: 'Duplicate key "s"' },
      { path: '5.code', message: 'Must be a string' },
      { path: '5.language', message: 'Must be a string' },
      { path: '6.url', message: 'Must be a string' },
      { path: '6.alt', message: 'Must be a string' },
      { path: '7._type', message: 'Must be a non-empty string' },
    ]);
  });

  it('refuses a value that is not an array', () => {
    for (const value of [null, 'text', { _type: 'block' }, 3]) {
      expect(portableTextIssues(value)).toEqual([{ path: '', message: 'Must be an array of Portable Text blocks' }]);
    }
  });
});

describe('normalizePortableText', () => {
  it('converts a Markdown string', () => {
    expect(normalizePortableText('Hello *world*')).toEqual({ ok: true, blocks: markdownToPortableText('Hello *world*') });
    expect(normalizePortableText('')).toEqual({ ok: true, blocks: [] });
  });

  it('keeps given keys and adds the missing ones, style, markDefs and marks the same way every time', () => {
    const value = [
      { _type: 'block', _key: 'given', style: 'h2', markDefs: [{ _type: 'link', href: 'https://a.example' }], children: [{ _type: 'span', text: 'a' }] },
      { _type: 'block', children: [{ _type: 'span', _key: 'kept', text: 'b', marks: ['em'] }, { _type: 'mention', user: 'u1' }] },
      { _type: 'callout', tone: 'info' },
    ];
    const result = normalizePortableText(value);
    expect(result).toEqual(normalizePortableText(structuredClone(value)));
    if (!result.ok) throw new Error('expected valid Portable Text');
    const [first, second, third] = result.blocks as [PortableTextTextBlock, PortableTextTextBlock, PortableTextBlock];
    expect(first._key).toBe('given');
    expect(first.style).toBe('h2');
    expect(first.markDefs).toEqual([{ _type: 'link', _key: expect.stringMatching(keyPattern), href: 'https://a.example' }]);
    expect(first.children).toEqual([{ _type: 'span', _key: expect.stringMatching(keyPattern), text: 'a', marks: [] }]);
    expect(second).toEqual({
      _type: 'block',
      _key: expect.stringMatching(keyPattern),
      style: 'normal',
      markDefs: [],
      children: [
        { _type: 'span', _key: 'kept', text: 'b', marks: ['em'] },
        { _type: 'mention', _key: expect.stringMatching(keyPattern), user: 'u1' },
      ],
    });
    expect(third).toEqual({ _type: 'callout', _key: expect.stringMatching(keyPattern), tone: 'info' });
    const keys = allKeys(result.blocks);
    expect(new Set(keys).size).toBe(keys.length);
    expect(value[1]).not.toHaveProperty('_key');
  });

  it('returns the issues of invalid Portable Text and refuses values that are neither text nor blocks', () => {
    expect(normalizePortableText([{ _type: 'block' }])).toEqual({ ok: false, issues: [{ path: '0.children', message: 'Must be an array of spans' }] });
    for (const value of [null, 42, { _type: 'block' }, true]) {
      expect(normalizePortableText(value)).toEqual({
        ok: false,
        issues: [{ path: '', message: 'Must be Portable Text (an array of blocks) or a Markdown string' }],
      });
    }
  });
});

describe('normalizePortableText limits on Markdown', () => {
  const refusal = (message: string | RegExp) => ({ ok: false, issues: [{ path: '', message: typeof message === 'string' ? message : expect.stringMatching(message) }] });
  const tooDeep = refusal(/^Markdown nests too deeply \(at most 32 levels/);
  const prefixTooLong = (line: number) => refusal(`Line ${line} nests too deeply (more than 100 characters of indentation, quote and list markers)`);
  /** A list nested one level deeper on every line, the shape marked re-reads once per level. */
  const staircase = (levels: number) => Array.from({ length: levels }, (_, level) => `${'  '.repeat(level)}- x\n`).join('');

  it('refuses Markdown longer than the limit and accepts it at the limit', () => {
    const atLimit = 'a'.repeat(markdownLimits.maxLength);
    expect(normalizePortableText(`${atLimit}b`)).toEqual(refusal(`Markdown must be at most ${markdownLimits.maxLength} characters`));
    expect(normalizePortableText(atLimit).ok).toBe(true);
  });

  it('refuses a line with more than 100 characters of indentation, quote and list markers before lexing it', () => {
    expect(normalizePortableText(`Intro\n\n${'>'.repeat(10_000)} x`)).toEqual(prefixTooLong(3));
    expect(normalizePortableText(`${'- '.repeat(3000)}x`)).toEqual(prefixTooLong(1));
    expect(normalizePortableText(`${'1. '.repeat(40)}x`)).toEqual(prefixTooLong(1));
    expect(normalizePortableText(staircase(60))).toEqual(prefixTooLong(51));
  });

  it('refuses quotes, lists, links and emphasis nested more than 32 levels deep', () => {
    expect(normalizePortableText(staircase(33))).toEqual(tooDeep);
    expect(normalizePortableText(`${'> '.repeat(33)}x`)).toEqual(tooDeep);
    expect(normalizePortableText(`${'*'.repeat(10_000)}x${'*'.repeat(10_000)}`)).toEqual(tooDeep);
    expect(normalizePortableText(`${'*a _a '.repeat(2000)}b${' a_ a*'.repeat(2000)}`)).toEqual(tooDeep);
    expect(normalizePortableText(`${'**a '.repeat(33)}b${' a**'.repeat(33)}`)).toEqual(tooDeep);
    expect(normalizePortableText(`${'~a '.repeat(33)}b${' a~'.repeat(33)}`)).toEqual(tooDeep);
    expect(() => markdownToPortableText(staircase(33))).toThrow(/nests too deeply/);
  });

  it('refuses many emphasis markers in one long paragraph, which marked scans in quadratic time', () => {
    expect(normalizePortableText(`${'_a '.repeat(1000)}${'b'.repeat(200_000)} a_`)).toEqual(refusal(/^Markdown has too many emphasis markers/));
    expect(normalizePortableText(`${'_x'.repeat(100)}\n\n`.repeat(150)).ok).toBe(true);
  });

  it('converts the deepest accepted nesting', () => {
    const list = normalizePortableText(staircase(31));
    if (!list.ok) throw new Error(list.issues[0]?.message);
    expect(list.blocks.map((block) => (block as PortableTextTextBlock).level)).toEqual(Array.from({ length: 31 }, (_, index) => index + 1));
    const quote = normalizePortableText(`${'> '.repeat(31)}deep`);
    expect(quote.ok && shape(quote.blocks)).toEqual([{ ...paragraph(span('deep')), style: 'blockquote' }]);
    const emphasis = normalizePortableText(`${'*a _a '.repeat(15)}b${' a_ a*'.repeat(15)}`);
    expect(emphasis.ok && portableTextToPlainText(emphasis.blocks)).toBe(`${'a a '.repeat(15)}b${' a a'.repeat(15)}`);
  });

  it('converts the worst accepted shapes repeated to a large document', () => {
    const repeatTo = (unit: string, length: number) => unit.repeat(Math.floor(length / unit.length));
    const quotedLists = normalizePortableText(repeatTo(`${'> - '.repeat(15)}x\n`, 20_000));
    expect(quotedLists.ok && quotedLists.blocks.length).toBeGreaterThan(300);
    const stairs = normalizePortableText(repeatTo(`${staircase(31)}\n`, 20_000));
    expect(stairs.ok && stairs.blocks.length).toBeGreaterThan(500);
  });

  it('still converts ordinary documents: nested lists, indented code, long separators and 200 KB articles', () => {
    const nested = normalizePortableText(staircase(6));
    expect(nested.ok && nested.blocks.length).toBe(6);
    const code = normalizePortableText(`- item\n\n  \`\`\`js\n  ${' '.repeat(120)}deep();\n  \`\`\`\n\n${' '.repeat(130)}x`);
    expect(code.ok && code.blocks.map((block) => block._type)).toEqual(['block', 'code', 'code']);
    const separators = normalizePortableText(`Name: ${'_'.repeat(60)}\n\n${'*'.repeat(70)}\n\n${'~'.repeat(60)} ${'-'.repeat(80)}`);
    expect(separators.ok).toBe(true);
    const section = '## Section\n\nSome *emphasis*, **strong** and `code` with a [link](https://a.example).\n\n- one\n  - two\n    - three\n\n> quoted\n\n';
    const article = section.repeat(Math.ceil(200_000 / section.length));
    expect(article.length).toBeGreaterThan(200_000);
    const converted = normalizePortableText(article);
    expect(converted.ok && converted.blocks.length).toBe((article.length / section.length) * 6);
  });
});

describe('portableTextToPlainText', () => {
  it('joins the text of text and code blocks, one paragraph each', () => {
    const blocks = markdownToPortableText('# Title\n\nSome **bold** [link](https://a.example)\n\n![pic](/p.png)\n\n---\n\n```\ncode\n```\n\n- item');
    expect(portableTextToPlainText(blocks)).toBe('Title\n\nSome bold link\n\ncode\n\nitem');
    expect(portableTextToPlainText([])).toBe('');
  });

  it('includes the text of blocks nested in other blocks (quotes, table cells, captions), as imported content has them', () => {
    const [first, second, third] = markdownToPortableText('Quoted\n\nCell\n\nCaption');
    const blocks = [
      { _type: 'quote', _key: 'q', content: [first], citation: [] },
      { _type: 'table', _key: 't', rows: [{ _type: 'tableRow', _key: 'r', cells: [{ _type: 'tableCell', _key: 'c', content: [second] }] }] },
      { _type: 'image', _key: 'i', url: '/p.png', caption: [third] },
      { _type: 'html', _key: 'h', html: '<b>raw</b>' },
    ] as PortableTextBlock[];
    expect(portableTextToPlainText(blocks)).toBe('Quoted\n\nCell\n\nCaption');
  });
});
