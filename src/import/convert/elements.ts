/**
 * The HTML elements that make blocks of their own, whether they come from classic posts or from the
 * markup inside a block: paragraphs, headings, lists, quotes, code, figures with captions, tables,
 * media and disclosure widgets.
 */
import type { PortableTextBlock } from '../../content/value-types.ts';
import { attr, childrenOf, classes, descendants, hasAttr, hasClass, isElement, textContent, type Element, type Node } from './dom.ts';
import type { HandlerContext } from './flow.ts';
import { alignmentOf, audioBlock, embedBlock, imageBlock, videoBlock, type LinkInfo } from './media.ts';
import type { Shape } from './text.ts';

export type ElementHandler = (element: Element, context: HandlerContext) => void;

const normal: Shape = { style: 'normal' };

function childElements(element: Element, ...tags: string[]): Element[] {
  return childrenOf(element).filter((child): child is Element => isElement(child) && tags.includes(child.tagName));
}

function withoutElements(element: Element, skipped: readonly Element[]): Node[] {
  return childrenOf(element).filter((child) => !(isElement(child) && skipped.includes(child)));
}

/** A paragraph or heading; an `id` (a target of `#links`, a block's HTML anchor) stays on its first block. */
function textElement(element: Element, { writer, at }: HandlerContext, shape: Shape): void {
  const first = writer.blocks.length;
  writer.nodes(childrenOf(element), at, shape);
  writer.flush(shape);
  const id = attr(element, 'id');
  const block = writer.blocks[first];
  if (id && block?._type === 'block') writer.blocks[first] = { ...block, anchor: id };
}

const paragraph: ElementHandler = (element, context) => textElement(element, context, context.shape);

const heading: ElementHandler = (element, context) => textElement(element, context, { ...context.shape, style: element.tagName });

/** List items are text blocks with `listItem` and `level`; a list inside an item goes one level deeper. */
const list: ElementHandler = (element, { writer, at, shape }) => {
  const itemShape: Shape = {
    style: 'normal',
    listItem: element.tagName === 'ol' ? 'number' : 'bullet',
    level: (shape.listItem ? (shape.level ?? 1) : 0) + 1,
  };
  for (const child of childrenOf(element)) {
    if (isElement(child) && child.tagName === 'li') {
      writer.nodes(childrenOf(child), at, itemShape);
      writer.flush(itemShape);
    } else writer.nodes([child], at, itemShape);
  }
  writer.flush(itemShape);
};

/** A quote's text as nested blocks and its citation (`<cite>` or `<footer>` right inside it) apart. */
function quoteBlock(type: 'quote' | 'pullquote', blockquote: Element, { writer, at }: HandlerContext, extra: Record<string, unknown> = {}): void {
  const citations = childElements(blockquote, 'cite', 'footer');
  const content = writer.convert(withoutElements(blockquote, citations), at);
  const citation = citations.flatMap((cite) => writer.convert(childrenOf(cite), at));
  writer.push({ _type: type, _key: writer.conversion.key(), content, ...(citation.length > 0 ? { citation } : {}), ...extra });
}

const blockquote: ElementHandler = (element, context) => {
  const source = attr(element, 'cite');
  quoteBlock('quote', element, context, source === undefined ? {} : { citeUrl: source });
};

function languageOf(...elements: (Element | undefined)[]): string | undefined {
  for (const element of elements) {
    const language = element && classes(element).find((name) => /^(language|lang)-/.test(name));
    if (language) return language.replace(/^(language|lang)-/, '');
    const brush = element && /brush:\s*([\w+#-]+)/.exec(attr(element, 'class') ?? '');
    if (brush) return brush[1];
  }
  return undefined;
}

/** `<pre><code>` and the code block are code (text exactly as written); other `<pre>` keeps its marks. */
const pre: ElementHandler = (element, { writer, at }) => {
  const code = childElements(element, 'code')[0];
  const onlyCode = code !== undefined && childrenOf(element).every((child) => child === code || (!isElement(child) && textContent(child).trim() === ''));
  if (hasClass(element, 'wp-block-code') || onlyCode) {
    const language = languageOf(element, code);
    const source = onlyCode ? code : element;
    // The block editor lets code carry marks and links; the text with them is kept beside the plain code.
    const formatted = descendants(source).length > 0 ? writer.convert(childrenOf(source), { ...at, pre: true }, { style: 'code' }) : [];
    writer.push({
      _type: 'code',
      _key: writer.conversion.key(),
      code: textContent(source, '\n'),
      ...(language ? { language } : {}),
      ...(formatted.length > 0 ? { formatted } : {}),
    });
    return;
  }
  const shape = { style: hasClass(element, 'wp-block-verse') ? 'verse' : 'preformatted' };
  writer.nodes(childrenOf(element), { ...at, pre: true }, shape);
  writer.flush(shape);
};

/** The link an element sits in, looking up from it to (not beyond) the given ancestor. */
export function enclosingLink(element: Element, within?: Element): LinkInfo | undefined {
  for (let node = element.parentNode; node && node !== within && 'tagName' in node; node = node.parentNode) {
    const href = attr(node, 'href');
    if (node.tagName === 'a' && href !== undefined) return { href, target: attr(node, 'target'), rel: attr(node, 'rel') };
  }
  return undefined;
}

const contentElements = new Set(['img', 'video', 'audio', 'iframe', 'object', 'embed', 'svg', 'table', 'blockquote', 'pre']);

/** Whether a figure holds nothing but the given element (and its caption): no other text or media to lose. */
function holdsOnly(figure: Element, main: Element, captions: readonly Element[]): boolean {
  const rest = (nodes: Node[]): boolean =>
    nodes.every((node) => {
      if (!isElement(node)) return textContent(node).trim() === '';
      if (node === main || captions.includes(node)) return true;
      return !contentElements.has(node.tagName) && rest(childrenOf(node));
    });
  return rest(childrenOf(figure));
}

/** A figure is the one thing it shows (a quote, a table, media) with its caption, else its content as it comes. */
const figure: ElementHandler = (element, context) => {
  const { writer, at } = context;
  const captions = childElements(element, 'figcaption');
  const caption = captions.flatMap((figcaption) => writer.convert(childrenOf(figcaption), at));
  if (hasClass(element, 'wp-block-embed')) return writer.push(embedBlock(writer.conversion, textContent(withoutElements(element, captions)).trim(), caption));
  const main = descendants(withoutElements(element, captions)).find((descendant) => contentElements.has(descendant.tagName));
  if (main && holdsOnly(element, main, captions)) {
    switch (main.tagName) {
      case 'blockquote':
        return quoteBlock(hasClass(element, 'wp-block-pullquote') ? 'pullquote' : 'quote', main, context, caption.length > 0 ? { caption } : {});
      case 'table':
        return table(main, { ...context, caption });
      case 'video':
        return writer.push(videoBlock(writer.conversion, main, caption));
      case 'audio':
        return writer.push(audioBlock(writer.conversion, main, caption));
      case 'img':
        return writer.push(imageBlock(writer.conversion, main, { link: enclosingLink(main, element) ?? linkOf(at), caption, align: alignmentOf(main) ?? alignmentOf(element) }));
      default:
        break;
    }
  }
  writer.nodes(withoutElements(element, captions), at, normal);
  writer.flush(normal);
  writer.push(...caption);
};

function linkOf(at: HandlerContext['at']): LinkInfo | undefined {
  return at.link ? { href: at.link.href, target: at.link.target, rel: at.link.rel } : undefined;
}

const image: ElementHandler = (element, { writer, at }) => writer.push(imageBlock(writer.conversion, element, { link: linkOf(at), caption: [] }));

function cellSpan(cell: Element, name: 'colspan' | 'rowspan'): Record<string, number> {
  const value = Number(attr(cell, name));
  return Number.isInteger(value) && value > 1 ? { [name]: value } : {};
}

/** A table keeps rows and cells, each cell's content as blocks so its marks and links stay. */
function table(element: Element, { writer, at, caption }: HandlerContext & { caption: PortableTextBlock[] }): void {
  const rows: PortableTextBlock[] = [];
  const addRows = (container: Element, section: string): void => {
    for (const row of childElements(container, 'tr')) {
      const cells = childElements(row, 'td', 'th').map((cell) => ({
        _type: 'tableCell',
        _key: writer.conversion.key(),
        ...(cell.tagName === 'th' ? { header: true } : {}),
        ...cellSpan(cell, 'colspan'),
        ...cellSpan(cell, 'rowspan'),
        content: writer.convert(childrenOf(cell), at),
      }));
      rows.push({ _type: 'tableRow', _key: writer.conversion.key(), ...(section === 'body' ? {} : { section }), cells });
    }
  };
  addRows(element, 'body');
  for (const section of childElements(element, 'thead', 'tbody', 'tfoot')) addRows(section, section.tagName.slice(1));
  const ownCaption = childElements(element, 'caption').flatMap((captionElement) => writer.convert(childrenOf(captionElement), at));
  const allCaption = [...ownCaption, ...caption];
  writer.push({ _type: 'table', _key: writer.conversion.key(), rows, ...(allCaption.length > 0 ? { caption: allCaption } : {}) });
}

const details: ElementHandler = (element, { writer, at }) => {
  const summaries = childElements(element, 'summary');
  const summary = summaries.flatMap((summaryElement) => writer.convert(childrenOf(summaryElement), at));
  const content = writer.convert(withoutElements(element, summaries), at);
  writer.push({ _type: 'details', _key: writer.conversion.key(), summary, content, ...(hasAttr(element, 'open') ? { open: true } : {}) });
};

export const elementHandlers: Record<string, ElementHandler> = {
  p: paragraph,
  h1: heading,
  h2: heading,
  h3: heading,
  h4: heading,
  h5: heading,
  h6: heading,
  ul: list,
  ol: list,
  menu: list,
  blockquote,
  pre,
  figure,
  img: image,
  table: (element, context) => table(element, { ...context, caption: [] }),
  hr: (_element, { writer }) => writer.push({ _type: 'break', _key: writer.conversion.key() }),
  video: (element, { writer }) => writer.push(videoBlock(writer.conversion, element, [])),
  audio: (element, { writer }) => writer.push(audioBlock(writer.conversion, element, [])),
  iframe: (element, { writer }) => writer.push(embedBlock(writer.conversion, attr(element, 'src') ?? '', [], { iframe: true })),
  details,
};
