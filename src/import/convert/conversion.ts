import { hash } from 'node:crypto';

export interface ConvertOptions {
  /** The site's address (`https://example.com`): media with a relative address is resolved against it. */
  siteUrl?: string;
  /**
   * The post's `footnotes` meta value (a JSON array of `{id, content}`), which WordPress keeps outside
   * the content and the `core/footnotes` block renders.
   */
  footnotes?: string;
}

/**
 * What one post's conversion shares: keys that are unique in the whole document (nested blocks
 * included) and the same for the same content, the options, and the warnings, one per kind.
 */
export class Conversion {
  /** Six hex digits from the content, so keys differ between documents; a counter makes the rest. */
  readonly #keyPrefix: string;
  #keyCount = 0;
  readonly #linkKeys = new Set<string>();
  readonly #warnings = new Map<string, { message: string; count: number }>();

  readonly options: ConvertOptions;

  constructor(content: string, options: ConvertOptions) {
    this.options = options;
    this.#keyPrefix = hash('sha256', content, 'hex').slice(0, 6);
  }

  /** A 12-character key, unique in the document and the same for the same content (hashing each key cost more than the rest of the conversion). */
  key(): string {
    return this.#keyPrefix + (this.#keyCount++).toString(16).padStart(6, '0');
  }

  /**
   * Whether a link definition's key is still free: a link around several blocks (`<a><p>…</p><p>…</p></a>`)
   * is defined in each, and all but the first definition get a key of their own.
   */
  claimLinkKey(key: string): boolean {
    if (this.#linkKeys.has(key)) return false;
    this.#linkKeys.add(key);
    return true;
  }

  /** Records a warning; one line per kind however often it happens, with the count. */
  warn(kind: string, message: string): void {
    const known = this.#warnings.get(kind);
    if (known) known.count++;
    else this.#warnings.set(kind, { message, count: 1 });
  }

  warnings(): string[] {
    return [...this.#warnings.values()].map(({ message, count }) => (count > 1 ? `${message} (${count} times)` : message));
  }

  /** A media address made absolute against the site when it is relative; links keep their href exactly. */
  mediaUrl(url: string): string {
    const trimmed = url.trim();
    if (this.options.siteUrl === undefined || trimmed === '' || /^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return trimmed;
    try {
      return new URL(trimmed, this.options.siteUrl.endsWith('/') ? this.options.siteUrl : `${this.options.siteUrl}/`).href;
    } catch {
      return trimmed;
    }
  }
}
