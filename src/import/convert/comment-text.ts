import { attr, childrenOf, isElement, isText, parseHtml, textContent, type Element, type Node } from './dom.ts';

/**
 * A WordPress comment's text as the Markdown subset Folio's comments are written in (decisions/0058).
 * WordPress stores what the commenter typed: lines (a blank line between paragraphs, a single newline a
 * line break, as its `wpautop` shows them) and the few tags commenters may use (links, emphasis, code,
 * quotes). Those become their Markdown; any other tag gives its text; the text itself is escaped so
 * that nothing in it reads as Markdown it never was. Folio renders the result to safe HTML itself.
 */
export function commentMarkdown(html: string): string {
  return paragraphs(blockText(parseHtml(html.replace(/\r\n?/g, '\n'))));
}

/** Characters Markdown gives a meaning to anywhere in a line. */
const inlineSpecials = /[\\`*_[\]<>~|]/g;

/** Text as Markdown reads it literally: specials escaped, and what would start a heading, list or quote at a line's start. */
function escaped(text: string): string {
  return text.replace(inlineSpecials, '\\$&').replace(/^(\s*)([#+-])/gm, '$1\\$2').replace(/^(\s*\d+)([.)])/gm, '$1\\$2');
}

const linkProtocols = /^(https?:|mailto:)/i;
const dropped = new Set(['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript']);

/** Markdown of the nodes; paragraphs are separated by blank lines, a line break is `\` then a newline. */
function blockText(nodes: Node[]): string {
  return nodes.map(nodeText).join('');
}

function nodeText(node: Node): string {
  // A single newline is a line break; two or more part paragraphs.
  if (isText(node)) return escaped(node.value).replace(/(?<!\n)\n(?!\n)/g, '\\\n');
  if (!isElement(node) || dropped.has(node.tagName)) return '';
  return elementText(node);
}

function wrapped(element: Element, marker: string): string {
  const inner = blockText(childrenOf(element));
  return inner.trim() === '' ? inner : `${marker}${inner}${marker}`;
}

function elementText(element: Element): string {
  switch (element.tagName) {
    case 'br':
      return '\\\n';
    case 'p':
    case 'div':
      return `\n\n${blockText(childrenOf(element)).trim()}\n\n`;
    case 'strong':
    case 'b':
      return wrapped(element, '**');
    case 'em':
    case 'i':
      return wrapped(element, '*');
    case 'code':
      return codeSpan(textContent(element));
    case 'pre':
      return `\n\n${codeBlock(textContent(element, '\n'))}\n\n`;
    case 'blockquote':
      return `\n\n${paragraphs(blockText(childrenOf(element))).replace(/^/gm, '> ')}\n\n`;
    case 'a': {
      const text = blockText(childrenOf(element)).trim();
      const href = (attr(element, 'href') ?? '').trim();
      if (!linkProtocols.test(href)) return text;
      return `[${text || escaped(href)}](<${href.replace(/[<>\s]/g, encodeURIComponent)}>)`;
    }
    case 'ul':
    case 'ol':
      return `\n\n${listItems(element).join('\n')}\n\n`;
    default:
      return blockText(childrenOf(element));
  }
}

function listItems(list: Element): string[] {
  const items = childrenOf(list).filter((child): child is Element => isElement(child) && child.tagName === 'li');
  return items.map((item, index) => {
    const marker = list.tagName === 'ol' ? `${index + 1}. ` : '- ';
    return `${marker}${paragraphs(blockText(childrenOf(item))).replace(/\n/g, `\n${' '.repeat(marker.length)}`)}`;
  });
}

/** Inline code, fenced by more backticks than it holds in a row. */
function codeSpan(code: string): string {
  const fence = '`'.repeat(longestRun(code, '`') + 1);
  const padded = code.startsWith('`') || code.endsWith('`') ? ` ${code} ` : code;
  return `${fence}${padded}${fence}`;
}

function codeBlock(code: string): string {
  const fence = '`'.repeat(Math.max(3, longestRun(code, '`') + 1));
  return `${fence}\n${code.replace(/\n$/, '')}\n${fence}`;
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const found of text) {
    run = found === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/** Paragraphs trimmed and separated by one blank line, none empty; a `<br>` and the newline after it make one break. */
function paragraphs(text: string): string {
  return text
    .replace(/(\\\n){2,}/g, '\\\n')
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.replace(/^[ \t]+|(?:\\\n|\s)+$/g, ''))
    .filter((paragraph) => paragraph !== '')
    .join('\n\n');
}
