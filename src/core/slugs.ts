/**
 * Entry slugs (DECISIONS §3): Unicode-aware, lower case, words joined by `-`, at most 80 characters
 * when generated. Letters of every script are kept (a Greek or Japanese title keeps its words);
 * accents on Latin letters are dropped, so "Crème brûlée" becomes `creme-brulee`.
 */
const maxGeneratedLength = 80;

export function slugify(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > maxGeneratedLength) break;
    slug = next;
  }
  // A first word longer than the limit is cut rather than lost.
  return slug || (words[0] ?? '').slice(0, maxGeneratedLength);
}

/** Lower-case letters of any script, digits, `_`, in runs joined by single `-`. */
const urlSafeSlug = /^[\p{Ll}\p{Lo}\p{Lm}\p{N}_]+(?:-[\p{Ll}\p{Lo}\p{Lm}\p{N}_]+)*$/u;

export function isUrlSafeSlug(slug: string): boolean {
  return urlSafeSlug.test(slug);
}

/** `base` with its `n`th suffix (`base-2`, `base-3`…; 1 is `base` itself), cut to stay within 80 characters. */
export function numberedSlug(base: string, n: number): string {
  if (n === 1) return base;
  const suffix = `-${n}`;
  return `${base.slice(0, maxGeneratedLength - suffix.length).replace(/-+$/, '')}${suffix}`;
}

/** The first of `base`, `base-2`, `base-3`… that is not in `taken`. */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  for (let n = 1; ; n++) {
    const candidate = numberedSlug(base, n);
    if (!taken.has(candidate)) return candidate;
  }
}
