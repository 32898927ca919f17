import { isoNow } from '../../core/clock.ts';
import { expandUrlPattern } from '../../core/url-patterns.ts';
import type { EntryRow } from '../../content/store.ts';
import type { Transaction } from '../../db/dialect.ts';
import { addEntryRedirect } from '../../redirects/chains.ts';
import { normalizePath } from '../../redirects/paths.ts';
import type { LoadedCollection } from '../../schema/store.ts';
import type { NormalizedItem } from '../sources/types.ts';
import { itemRow, type BatchOutput, type ImportRun } from './run-state.ts';

/**
 * The addresses an imported entry had on the old site lead to its address here (docs/decisions/0057):
 * its link there, when that differs from the new one (a slug renamed because taken, `.html`
 * permalinks, another URL structure), and each of its earlier slugs (`_wp_old_slug`) in that link's
 * place. Only published entries of collections with a URL pattern have an address to lead to. A
 * path that has a redirect already (an earlier import of the file) keeps it; each one added leaves
 * a checkpoint row of kind `redirect`, which the report counts.
 */
export async function recordOldAddresses(run: ImportRun, batch: BatchOutput, tx: Transaction, collection: LoadedCollection, row: EntryRow, item: NormalizedItem): Promise<void> {
  const pattern = collection.urlPattern;
  if (pattern === undefined || row._status !== 'published') return;
  const addressWith = (slug: string) => expandUrlPattern(pattern, { slug, id: row._id, locale: row._locale });
  const to = addressWith(row._slug);
  const toPath = normalizePath(to)!;
  const now = isoNow(run.ctx.clock);
  for (const fromPath of oldPaths(item, (slug) => normalizePath(addressWith(slug))!)) {
    if (fromPath === toPath || fromPath === '/') continue;
    const id = await addEntryRedirect(tx, { collection: collection.slug, entryId: row._id, fromPath, to, toPath, now });
    if (id !== undefined) batch.items.push(itemRow(run, 'redirect', fromPath, id, { collection: collection.slug }));
  }
}

/** The item's old paths: its link's, and its earlier slugs' in the link, else where the new pattern would put them. */
function oldPaths(item: NormalizedItem, patternPath: (slug: string) => string): Set<string> {
  const paths = new Set<string>();
  const link = linkPath(item.link);
  if (link !== undefined) paths.add(link);
  for (const oldSlug of earlierSlugs(item.meta._wp_old_slug)) {
    paths.add((link !== undefined ? withSlugReplaced(link, item.slug, oldSlug) : undefined) ?? patternPath(oldSlug));
  }
  return paths;
}

/** A link's path; none for a link by query (`/?p=12`, a draft's or a site without pretty permalinks). */
function linkPath(link: string | undefined): string | undefined {
  if (link === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return undefined;
  }
  return url.search === '' ? normalizePath(url.pathname) : undefined;
}

/** `_wp_old_slug` as the importer keeps it: one value, or the array of a repeated key's values. */
function earlierSlugs(value: unknown): string[] {
  const values = Array.isArray(value) ? value : [value];
  return values.filter((slug) => typeof slug === 'string' || typeof slug === 'number').map(String).filter((slug) => slug.trim() !== '');
}

/** The path with the last segment that is `slug` replaced by `oldSlug`; undefined when no segment is. */
function withSlugReplaced(path: string, slug: string, oldSlug: string): string | undefined {
  const segment = (text: string) => normalizePath(`/${text}`)?.slice(1);
  const segments = path.split('/');
  const at = segments.lastIndexOf(segment(slug) ?? '');
  const replacement = segment(oldSlug);
  if (at <= 0 || replacement === undefined || replacement === '' || replacement.includes('/')) return undefined;
  segments[at] = replacement;
  return segments.join('/');
}
