import { Tokenizer } from 'marked';

/**
 * Limits on Markdown from contributors. marked re-reads the content of every nested quote, list item,
 * link and emphasis once per level and recurses as deep as the nesting goes, so deep nesting costs
 * time quadratic in the input (or overflows the stack) and plain length multiplies every cost.
 */
export const markdownLimits = {
  /** Characters of one Markdown value; a 200 KB article is far below, the worst accepted input lexes in well under a second. */
  maxLength: 250_000,
  /** Nested quotes, lists, links and emphasis together; real documents stay under ten. */
  maxNesting: 32,
  /** Characters of indentation, `>` and list markers in front of a line's last `>` or list marker. */
  maxLinePrefix: 100,
  /**
   * Characters marked looks through for the closers of emphasis (`*`, `_`, `~`): for each opener, up to the
   * rest of its paragraph. Many openers in one long paragraph cost their product; this bounds it.
   */
  maxEmphasisScan: 100_000_000,
} as const;

export const tooDeep = `Markdown nests too deeply (at most ${markdownLimits.maxNesting} levels of quotes, lists, links and emphasis)`;

/** Thrown by markdownToPortableText when the Markdown is beyond markdownLimits.maxNesting or maxEmphasisScan. */
export class MarkdownLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MarkdownLimitError';
  }
}

/** marked's tokenizer, counting how deep the tokenizers that lex their own content again are nested. */
export class LimitedTokenizer extends Tokenizer {
  #depth = 0;
  #emphasisScan = 0;

  #nested<T>(tokenize: () => T): T {
    if (this.#depth >= markdownLimits.maxNesting) throw new MarkdownLimitError(tooDeep);
    this.#depth++;
    try {
      return tokenize();
    } finally {
      this.#depth--;
    }
  }

  override blockquote(src: string) {
    return this.#nested(() => super.blockquote(src));
  }

  override list(src: string) {
    return this.#nested(() => super.list(src));
  }

  override link(src: string) {
    return this.#nested(() => super.link(src));
  }

  override reflink(src: string, links: Parameters<Tokenizer['reflink']>[1]) {
    return this.#nested(() => super.reflink(src, links));
  }

  override emStrong(src: string, maskedSrc: string, prevChar?: string) {
    this.#countEmphasisScan(src);
    return this.#nested(() => super.emStrong(src, maskedSrc, prevChar));
  }

  override del(src: string, maskedSrc: string, prevChar?: string) {
    this.#countEmphasisScan(src);
    return this.#nested(() => super.del(src, maskedSrc, prevChar));
  }

  /** marked tries these at every inline position; only at a delimiter may it scan the rest of the text. */
  #countEmphasisScan(src: string): void {
    if (!'*_~'.includes(src.charAt(0))) return;
    this.#emphasisScan += src.length;
    if (this.#emphasisScan > markdownLimits.maxEmphasisScan) {
      throw new MarkdownLimitError('Markdown has too many emphasis markers (*, _, ~) in long paragraphs; split them into shorter paragraphs');
    }
  }
}

// Indentation and container markers up to the last `>` or list marker of a line; linear, as it never fails.
const linePrefixPattern = /^(?:[ \t]*(?:>|[-+*](?=[ \t])|\d{1,9}[.)](?=[ \t])))*/;

/** Why Markdown is refused before lexing it, found in one linear pass; undefined when it may be lexed. */
export function markdownProblem(markdown: string): string | undefined {
  if (markdown.length > markdownLimits.maxLength) return `Markdown must be at most ${markdownLimits.maxLength} characters`;
  const lines = markdown.split('\n');
  for (const [index, line] of lines.entries()) {
    if ((linePrefixPattern.exec(line)?.[0].length ?? 0) > markdownLimits.maxLinePrefix) {
      return `Line ${index + 1} nests too deeply (more than ${markdownLimits.maxLinePrefix} characters of indentation, quote and list markers)`;
    }
  }
  return undefined;
}
