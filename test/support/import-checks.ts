import { expect } from 'vitest';
import { api } from './content.ts';
import { expectSuccess, type ApiResponse, type TestApp } from './harness.ts';
import type { MediaFixtureServer } from './media-fixtures.ts';
import { allPages, attachmentPaths, importedEntries, sourceCategories, sourceItems } from './wxr.ts';

/**
 * What an imported site must show, checked against the export file itself (by plain-text reading,
 * independent of Folio's reader): the default suite runs these on a generated site, the fidelity
 * suite on WordPress's own test data. Each returns what it counted, for the caller's expectations.
 */

export type ImportedEntry = { id: string; slug: string; status: string; data: Record<string, unknown>; publishedAt?: string; scheduledAt?: string; createdAt: string; bylines?: string[]; primaryBylineId?: string };
export type ImportedTerm = { id: string; slug: string; parentId: string | null };
type MenuTree = { id: string; type: string; referenceId: string | null; url: string | null; children: MenuTree[] };

const get = async (t: TestApp, path: string) => expectSuccess(await t.request('GET', `${api}${path}`, { token: t.adminToken }));

/** Execute answers when the import has finished (issue 29, item 19): the job, succeeded, with its report. */
export function finishedJob(response: ApiResponse) {
  const job = expectSuccess(response).item;
  expect(job.state, JSON.stringify(job)).toBe('succeeded');
  return job;
}

/** Each attachment downloaded once; no entry still points at the old media site; the featured images' URLs. */
export async function expectMediaMoved(t: TestApp, site: MediaFixtureServer, exportFile: string): Promise<string[]> {
  const paths = attachmentPaths(exportFile);
  for (const path of paths) expect(site.hits.get(path), path).toBe(1);
  const entries = [...(await allPages<ImportedEntry>(t, '/content/posts')), ...(await allPages<ImportedEntry>(t, '/content/pages'))];
  const text = JSON.stringify(entries.map((entry) => entry.data));
  // Each file by its name without the extension: its size variants (`-150x150`) are the same file.
  for (const path of paths) expect(text).not.toContain(`${site.origin}${path.replace(/\.[a-z0-9]+$/i, '')}`);
  const featured = entries.flatMap((entry) => (entry.data.featured_image ? [(entry.data.featured_image as { url: string }).url] : []));
  for (const url of featured) expect(url).toMatch(/\/media\//);
  return featured;
}

/** Every post's status as DECISIONS §7 maps it, and its dates the source's (GMT), not the import's. */
export async function expectStatusesAndDates(t: TestApp, exportFile: string): Promise<void> {
  const entries = await importedEntries(t);
  const posts = new Map((await allPages<ImportedEntry>(t, '/content/posts')).map((post) => [post.id, post]));
  const source = sourceItems(exportFile).filter((item) => item.type === 'post');
  const statuses = { publish: 'published', future: 'scheduled', draft: 'draft' } as Record<string, string>;
  for (const item of source) {
    const post = posts.get(entries.get(item.id)!)!;
    // A password-protected post is kept out of public reads as a draft, dated as in the source.
    expect(post.status, item.id).toBe(item.password ? 'draft' : statuses[item.status]);
    const wanted = `${item.dateGmt.replace(' ', 'T')}.000Z`;
    if (item.status !== 'draft') expect(post.createdAt, item.id).toBe(wanted);
    if (item.status === 'publish' && !item.password) expect(post.publishedAt, item.id).toBe(wanted);
    if (item.status === 'future') expect(post.scheduledAt).toBe(wanted);
  }
  expect(source.filter((item) => item.status === 'future')).toHaveLength(1);
  expect(source.filter((item) => item.status === 'draft')).toHaveLength(1);
}

/** Every page's parent as in the source; how many pages have one. */
export async function expectPageParents(t: TestApp, exportFile: string): Promise<number> {
  const pages = await allPages<ImportedEntry>(t, '/content/pages');
  const idBySource = await importedEntries(t);
  let parents = 0;
  for (const item of sourceItems(exportFile).filter((candidate) => candidate.type === 'page')) {
    const page = pages.find((candidate) => candidate.id === idBySource.get(item.id))!;
    const wanted = item.parent === '0' ? null : idBySource.get(item.parent);
    if (wanted) parents++;
    expect(page.data.parent ?? null, `page ${item.slug}`).toBe(wanted ?? null);
  }
  return parents;
}

/** Every category's parent and every post's categories and tags as in the source; how many assignments. */
export async function expectTermsAsInSource(t: TestApp, exportFile: string): Promise<number> {
  const categories = await allPages<ImportedTerm>(t, '/taxonomies/category/terms');
  const slugOf = new Map(categories.map((term) => [term.id, term.slug]));
  for (const [slug, parent] of sourceCategories(exportFile)) {
    const term = categories.find((candidate) => candidate.slug === slug)!;
    expect(term, slug).toBeDefined();
    expect(term.parentId === null ? '' : slugOf.get(term.parentId), `parent of ${slug}`).toBe(parent);
  }
  const entries = await importedEntries(t);
  let assignments = 0;
  for (const item of sourceItems(exportFile).filter((candidate) => candidate.type === 'post')) {
    for (const [domain, taxonomy] of [['category', 'category'], ['post_tag', 'tag']] as const) {
      const wanted = [...new Set(item.terms.filter((term) => term.domain === domain).map((term) => decodeURIComponent(term.nicename)))].sort();
      const got = (await get(t, `/content/posts/${entries.get(item.id)!}/terms/${taxonomy}`)).items.map((term: ImportedTerm) => term.slug).sort();
      expect(got, `${domain} of ${item.slug}`).toEqual(wanted);
      assignments += wanted.length;
    }
  }
  return assignments;
}

/** Every menu item with its nesting (at most 10 levels: deeper ones sit at the tenth) and its kind of target; the menus' names. */
export async function expectMenusAsInSource(t: TestApp, exportFile: string): Promise<string[]> {
  const source = sourceItems(exportFile).filter((item) => item.type === 'nav_menu_item');
  const menus = new Map<string, typeof source>();
  for (const item of source) {
    const menu = item.terms.find((term) => term.domain === 'nav_menu')!.nicename;
    menus.set(menu, [...(menus.get(menu) ?? []), item]);
  }
  const kindOf = (type: string | undefined) => (type === 'custom' || type === 'taxonomy' ? type : 'entry');
  const byNumber = (a: number, b: number) => a - b;
  for (const [name, items] of menus) {
    const tree: MenuTree[] = (await get(t, `/menus/${name}`)).item.items;
    const flat: { depth: number; item: MenuTree }[] = [];
    const walk = (nodes: MenuTree[], depth: number) => nodes.forEach((node) => (flat.push({ depth, item: node }), walk(node.children, depth + 1)));
    walk(tree, 1);
    expect(flat.length, name).toBe(items.length);
    const depthOf = (item: (typeof items)[number]): number => {
      const parent = item.meta.get('_menu_item_menu_item_parent') ?? '0';
      return parent === '0' ? 1 : 1 + depthOf(items.find((candidate) => candidate.id === parent)!);
    };
    expect(flat.map((node) => node.depth).sort(byNumber), name).toEqual(items.map((item) => Math.min(depthOf(item), 10)).sort(byNumber));
    expect(flat.map((node) => kindOf(node.item.type)).sort(), name).toEqual(items.map((item) => kindOf(item.meta.get('_menu_item_type'))).sort());
  }
  return [...menus.keys()].sort();
}
