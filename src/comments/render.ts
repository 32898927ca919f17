import { getDefaults, Lexer, type Token, type Tokens } from 'marked';
import { LimitedTokenizer } from '../content/markdown-limits.ts';

/**
 * A comment's Markdown subset as safe HTML, rendered once when the comment is written (decisions/0058):
 * paragraphs, line breaks, emphasis, strong, inline code, code blocks, quotes, lists and links (http,
 * https and mailto only, `rel="nofollow ugc"`). Everything else — raw HTML, images, headings, tables —
 * shows as the text it was written as, escaped. The HTML is built here from marked's tokens, never by
 * marked's own renderer, so no markup reaches the page that this file did not write.
 */

const linkProtocols = new Set(['http:', 'https:', 'mailto:']);

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The link's address as it goes in `href`, or undefined when it is not one a comment may carry. */
function safeHref(href: string): string | undefined {
  try {
    const url = new URL(href);
    return linkProtocols.has(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function inline(tokens: readonly Token[] | undefined): string {
  return (tokens ?? []).map(inlineToken).join('');
}

function inlineToken(token: Token): string {
  switch (token.type) {
    case 'text':
      return 'tokens' in token && token.tokens ? inline(token.tokens) : escapeHtml(token.text as string);
    case 'escape':
      return escapeHtml(token.text as string);
    case 'strong':
      return `<strong>${inline(token.tokens)}</strong>`;
    case 'em':
      return `<em>${inline(token.tokens)}</em>`;
    case 'codespan':
      return `<code>${escapeHtml(token.text as string)}</code>`;
    case 'br':
      return '<br>';
    case 'link': {
      const href = safeHref((token as Tokens.Link).href);
      return href === undefined ? escapeHtml(token.raw) : `<a href="${escapeHtml(href)}" rel="nofollow ugc">${inline(token.tokens)}</a>`;
    }
    default:
      return escapeHtml(token.raw);
  }
}

function blocks(tokens: readonly Token[]): string {
  return tokens.map(blockToken).join('');
}

function blockToken(token: Token): string {
  switch (token.type) {
    case 'space':
      return '';
    case 'paragraph':
      return `<p>${inline(token.tokens)}</p>`;
    case 'text':
      // A tight list item's text: inline content without a paragraph around it.
      return inlineToken(token);
    case 'code':
      return `<pre><code>${escapeHtml(token.text as string)}</code></pre>`;
    case 'blockquote':
      return `<blockquote>${blocks(token.tokens ?? [])}</blockquote>`;
    case 'list': {
      const list = token as Tokens.List;
      const tag = list.ordered ? 'ol' : 'ul';
      const start = list.ordered && typeof list.start === 'number' && list.start !== 1 ? ` start="${list.start}"` : '';
      return `<${tag}${start}>${list.items.map((item) => `<li>${blocks(item.tokens)}</li>`).join('')}</${tag}>`;
    }
    default:
      return `<p>${escapeHtml(token.raw.trim())}</p>`;
  }
}

/** The safe HTML of a comment's body (whose length the input schema has already capped). */
export function renderCommentBody(markdown: string): string {
  const tokens = Lexer.lex(markdown, { ...getDefaults(), gfm: true, breaks: true, pedantic: false, tokenizer: new LimitedTokenizer() });
  return blocks(tokens);
}
