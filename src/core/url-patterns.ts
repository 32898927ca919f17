import { z } from 'zod';

/**
 * Where a collection's entries or a taxonomy's terms are served on the site, e.g. `/blog/{slug}` or
 * `/{locale}/category/{slug}` (docs/decisions/0018). Menu items build their links from it on every
 * read, so a changed slug or pattern shows at once.
 */

const placeholders = ['slug', 'locale', 'id'] as const;
type Placeholder = (typeof placeholders)[number];

/** RFC 3986 unreserved characters and `/`: nothing a path would need to escape. */
const pathCharacters = /^[A-Za-z0-9\-._~/]*$/;

/** What is wrong with a pattern, or undefined when it is fine. */
function urlPatternProblem(pattern: string): string | undefined {
  if (!pattern.startsWith('/')) return 'Must start with "/"';
  // `//host/…` would be a link to another site.
  if (pattern.includes('//')) return 'Must not contain "//"';
  const counts = new Map<string, number>();
  const rest = pattern.replace(/\{([^{}]*)\}/g, (_match, name: string) => {
    counts.set(name, (counts.get(name) ?? 0) + 1);
    return '';
  });
  const unknown = [...counts.keys()].find((name) => !(placeholders as readonly string[]).includes(name));
  if (unknown !== undefined) return `Unknown placeholder {${unknown}}: only {slug}, {locale} and {id}`;
  if (counts.get('slug') !== 1) return 'Must contain {slug} exactly once';
  if ([...counts.values()].some((count) => count > 1)) return 'Each placeholder may appear once';
  if (!pathCharacters.test(rest)) return 'Only letters, digits, "-", ".", "_", "~" and "/" besides the placeholders';
  return undefined;
}

export const UrlPattern = z
  .string()
  .max(200)
  .superRefine((pattern, ctx) => {
    const problem = urlPatternProblem(pattern);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('Where items are served on the site: starts with "/", contains {slug} once, may contain {locale} and {id}; null: no URL');

/** The pattern with its placeholders filled in, each value percent-encoded (slugs may hold any script's letters). */
export function expandUrlPattern(pattern: string, values: Record<Placeholder, string>): string {
  return pattern.replace(/\{(slug|locale|id)\}/g, (_match, name: Placeholder) => encodeURIComponent(values[name]));
}
