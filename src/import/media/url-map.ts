/**
 * Old media URLs as WordPress writes them, matched loosely: the same file is written with http or
 * https, with or without `www.`, with a query string (`?w=300`, cache busters) or a fragment, and as
 * one of its generated sizes (`photo-300x200.jpg`, `photo-scaled.jpg`, `photo-rotated.jpg`,
 * `photo-scaled-1024x683.jpg`). All of them name the one original, so all of them become its new URL.
 */
const variantSuffix = /(?:-(?:scaled|rotated|e\d{10,}))*(?:-\d+x\d+)?(\.[a-z0-9]+)$/i;

/** The key every spelling of one file's URL shares; undefined for what is not an absolute http(s) URL. */
export function mediaUrlKey(text: string): string | undefined {
  const url = URL.parse(text);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  let path = url.pathname;
  try {
    path = decodeURI(path);
  } catch {
    // A malformed escape: the path as written.
  }
  return `${host}${url.port ? `:${url.port}` : ''}${path.replace(variantSuffix, '$1')}`;
}

/** Absolute http(s) URLs inside any text (an attribute, a link, raw HTML kept in a block). */
const urlInText = /https?:\/\/[^\s"'<>()\\]+/gi;

export class UrlRewriter {
  private readonly byKey = new Map<string, string>();
  /** URLs replaced so far. */
  replaced = 0;

  constructor(urlMap: Record<string, string>) {
    for (const [from, to] of Object.entries(urlMap)) {
      const key = mediaUrlKey(from);
      if (key !== undefined) this.byKey.set(key, to);
    }
  }

  get size(): number {
    return this.byKey.size;
  }

  /** The value with every old media URL in every string of it replaced (objects and arrays are copied only where something changed). */
  rewrite<T>(value: T): T {
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.rewriteText(value);
    if (Array.isArray(value)) {
      let changed = false;
      const next = value.map((item) => {
        const rewritten = this.walk(item);
        if (rewritten !== item) changed = true;
        return rewritten;
      });
      return changed ? next : value;
    }
    if (value !== null && typeof value === 'object') {
      let changed = false;
      const next: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const rewritten = this.walk(item);
        if (rewritten !== item) changed = true;
        next[key] = rewritten;
      }
      return changed ? next : value;
    }
    return value;
  }

  private rewriteText(text: string): string {
    if (!text.includes('://')) return text;
    return text.replace(urlInText, (found) => {
      // Sentence punctuation after a URL in prose is not part of it.
      const trailing = /[.,;:!?]+$/.exec(found)?.[0] ?? '';
      const url = trailing ? found.slice(0, -trailing.length) : found;
      const key = mediaUrlKey(url);
      const target = key === undefined ? undefined : this.byKey.get(key);
      if (target === undefined || target === url) return found;
      this.replaced++;
      return target + trailing;
    });
  }
}
