/**
 * Walks parsed HTML and writes Portable Text: inline elements become marks on text runs, block
 * elements flush the text gathered so far and add their own blocks. Everything the walk does not
 * know keeps its text (unknown inline elements) or its raw source (scripts, forms), never vanishing.
 */
import type { PortableTextBlock } from '../../content/value-types.ts';
import type { Conversion } from './conversion.ts';
import { attr, childrenOf, isComment, isElement, outerHtml, parseHtml, type Element, type Node } from './dom.ts';
import { elementHandlers } from './elements.ts';
import { textBlocks, type LinkDef, type Run, type Shape, type TextMode } from './text.ts';

/** Converts the inner block or shortcode a placeholder element stands for, into the given writer. */
export type PlaceholderResolver = (element: Element, writer: FlowWriter, shape: Shape) => void;

/** What an inline position inherits from the elements around it. */
export interface Inline {
  decorators: readonly string[];
  link?: LinkDef;
  pre: boolean;
  placeholders?: PlaceholderResolver;
}

export const plainInline: Inline = { decorators: [], pre: false };

/** Tag names that stand for the inner blocks of a block, or for shortcodes, while their HTML is walked. */
export const placeholderTag = 'folio-placeholder';

const decoratorOf: Record<string, string> = {
  strong: 'strong',
  b: 'strong',
  em: 'em',
  i: 'em',
  cite: 'em',
  dfn: 'em',
  var: 'em',
  code: 'code',
  kbd: 'code',
  samp: 'code',
  tt: 'code',
  u: 'underline',
  ins: 'underline',
  s: 'strike-through',
  strike: 'strike-through',
  del: 'strike-through',
  sup: 'sup',
  sub: 'sub',
  mark: 'highlight',
};

/** Elements that end the paragraph around them even when the walk does not convert them specially. */
const blockContainers = new Set([
  'div', 'section', 'article', 'aside', 'header', 'footer', 'main', 'nav', 'center', 'address', 'hgroup',
  'fieldset', 'legend', 'summary', 'dl', 'dt', 'dd', 'li', 'figcaption', 'body', 'html',
]);

/** Elements a document has no text in, which are kept as raw HTML so that nothing is dropped. */
const rawElements = new Set([
  'script', 'style', 'form', 'input', 'select', 'textarea', 'button', 'svg', 'math', 'canvas', 'noscript', 'object', 'embed', 'applet', 'map', 'link', 'meta',
]);

/** Comments that are WordPress markers rather than remarks. */
function markerBlock(conversion: Conversion, comment: string): PortableTextBlock | undefined {
  const trimmed = comment.trim();
  const more = /^more(?:\s+([\s\S]*))?$/.exec(trimmed);
  if (more) return { _type: 'more', _key: conversion.key(), ...(more[1] ? { text: more[1].trim() } : {}) };
  if (trimmed === 'nextpage') return { _type: 'pageBreak', _key: conversion.key() };
  return undefined;
}

export class FlowWriter {
  readonly blocks: PortableTextBlock[] = [];
  #runs: Run[] = [];
  readonly #links = new Map<string, LinkDef>();

  readonly conversion: Conversion;
  readonly mode: TextMode;

  constructor(conversion: Conversion, mode: TextMode) {
    this.conversion = conversion;
    this.mode = mode;
  }

  /** A writer for nested content (a quote's text, a table cell), sharing keys, warnings and mode. */
  nested(): FlowWriter {
    return new FlowWriter(this.conversion, this.mode);
  }

  /** The blocks that the given nodes make, written by a nested writer. */
  convert(nodes: Node[], at: Inline, shape: Shape = { style: 'normal' }): PortableTextBlock[] {
    const writer = this.nested();
    writer.nodes(nodes, at, shape);
    writer.flush(shape);
    return writer.blocks;
  }

  html(html: string, at: Inline, shape: Shape): void {
    this.nodes(parseHtml(html), at, shape);
  }

  push(...blocks: PortableTextBlock[]): void {
    this.blocks.push(...blocks);
  }

  /** Adds text at the current position (a button's label, a shortcode left as it was written). */
  text(text: string, at: Inline, hard = false): void {
    // A link may come from around a nested writer's content (`<a><blockquote>…`): this writer then needs its definition too.
    if (at.link && !this.#links.has(at.link._key)) this.#links.set(at.link._key, at.link);
    const marks = at.link ? [...at.decorators, at.link._key] : at.decorators;
    this.#runs.push({ text, marks, ...(at.pre ? { pre: true } : {}), ...(hard ? { hard: true } : {}) });
  }

  /** Turns the text gathered so far into blocks of the given shape. */
  flush(shape: Shape): void {
    if (this.#runs.length === 0) return;
    this.blocks.push(...textBlocks(this.conversion, this.#runs, this.#links, shape, this.mode));
    this.#runs = [];
  }

  nodes(nodes: Node[], at: Inline, shape: Shape): void {
    for (const node of nodes) {
      if (isElement(node)) this.element(node, at, shape);
      else if (isComment(node)) {
        const marker = markerBlock(this.conversion, node.data);
        if (marker) {
          this.flush(shape);
          this.push(marker);
        }
      } else if ('value' in node) this.text(node.value, at);
    }
  }

  element(element: Element, at: Inline, shape: Shape): void {
    const tag = element.tagName;
    const decorator = decoratorOf[tag];
    if (decorator !== undefined) {
      const decorators = at.decorators.includes(decorator) ? at.decorators : [...at.decorators, decorator];
      return this.nodes(childrenOf(element), { ...at, decorators }, shape);
    }
    if (tag === 'a') return this.nodes(childrenOf(element), { ...at, link: this.#link(element) ?? at.link }, shape);
    if (tag === 'br') return this.text('\n', at, true);
    if (tag === 'q') {
      // Browsers show an inline quotation between quotation marks, so its text has them.
      this.text('\u201c', at);
      this.nodes(childrenOf(element), at, shape);
      return this.text('\u201d', at);
    }
    if (tag === 'wbr') return;
    if (tag === placeholderTag) {
      this.flush(shape);
      if (at.placeholders) return at.placeholders(element, this, shape);
    }
    const handler = elementHandlers[tag];
    if (handler) {
      this.flush(shape);
      handler(element, { writer: this, at, shape });
      return;
    }
    if (rawElements.has(tag)) {
      this.flush(shape);
      this.conversion.warn(`html:${tag}`, `A <${tag}> element has no Portable Text form; kept as raw HTML in an "html" block`);
      return this.push({ _type: 'html', _key: this.conversion.key(), html: outerHtml(element) });
    }
    if (blockContainers.has(tag)) {
      this.flush(shape);
      this.nodes(childrenOf(element), at, shape);
      return this.flush(shape);
    }
    // span, font, abbr, small, q, time, label…: their text counts, their look does not.
    this.nodes(childrenOf(element), at, shape);
  }

  /** A link annotation for an `<a href>`; an anchor without href (a named target) is no link. */
  #link(element: Element): LinkDef | undefined {
    const href = attr(element, 'href');
    if (href === undefined) return undefined;
    const link: LinkDef = { _type: 'link', _key: this.conversion.key(), href };
    for (const name of ['target', 'rel', 'title', 'download']) {
      const value = attr(element, name);
      if (value !== undefined) link[name] = value;
    }
    this.#links.set(link._key, link);
    return link;
  }
}

/** The part of an element handler's context every handler needs. */
export interface HandlerContext {
  writer: FlowWriter;
  at: Inline;
  shape: Shape;
}
