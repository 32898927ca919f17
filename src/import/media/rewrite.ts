import type { AuthorizedContext } from '../../core/operation.ts';
import { columnData, toColumns } from '../../content/entries.ts';
import * as contentStore from '../../content/store.ts';
import { writeEntry } from '../../content/write.ts';
import { inTransaction } from '../../db/dialect.ts';
import { findLockedCollection } from '../../schema/lookup.ts';
import type { LoadedCollection } from '../../schema/store.ts';
import * as store from '../store.ts';
import { UrlRewriter } from './url-map.ts';

/** What a rewrite changed. */
export interface RewriteResult {
  /** Entries and sections with at least one URL replaced. */
  entries: number;
  sections: number;
  /** URLs replaced in all. */
  urls: number;
}

const pageSize = 100;

/**
 * The old media URLs in what imports made (entries of every imported site, and sections from
 * reusable blocks; nothing else of the site) replaced by the new ones: every string of every field
 * (Portable Text blocks and their mark definitions, image and file values, custom fields), the SEO
 * values, the draft and the live copy. A page of entries per transaction, through the one write path, so search,
 * hooks and webhooks see the change.
 */
export async function rewriteImportedUrls(ctx: AuthorizedContext, urlMap: Record<string, string>, signal?: AbortSignal): Promise<RewriteResult> {
  const rewriter = new UrlRewriter(urlMap);
  const result: RewriteResult = { entries: 0, sections: 0, urls: 0 };
  if (rewriter.size === 0) return result;
  result.entries = await eachImportedPage(ctx, 'post', signal, (rows) => rewriteEntries(ctx, rows, rewriter));
  result.sections = await eachImportedPage(ctx, 'section', signal, (rows) => rewriteSections(ctx, rows.map((row) => row.target_id), rewriter));
  result.urls = rewriter.replaced;
  return result;
}

/** Runs `rewrite` on every page of what imports made of `kind`, summing what each page changed. */
async function eachImportedPage(ctx: AuthorizedContext, kind: string, signal: AbortSignal | undefined, rewrite: (rows: store.ImportItemRow[]) => Promise<number>): Promise<number> {
  let changed = 0;
  for (let after: store.ImportItemRow | undefined; ; ) {
    signal?.throwIfAborted();
    const rows = await store.importedPage(ctx.db, kind, after && { sourceKey: after.source_key, sourceId: after.source_id }, pageSize);
    if (rows.length === 0) return changed;
    after = rows.at(-1);
    changed += await rewrite(rows);
  }
}

async function rewriteEntries(ctx: AuthorizedContext, rows: store.ImportItemRow[], rewriter: UrlRewriter): Promise<number> {
  return inTransaction(ctx.db, async (tx) => {
    const collections = new Map<string, LoadedCollection | undefined>();
    let changed = 0;
    for (const row of rows) {
      if (row.collection === null) continue;
      if (!collections.has(row.collection)) collections.set(row.collection, await findLockedCollection(tx, row.collection, 'share'));
      const collection = collections.get(row.collection);
      // A collection removed since the import: nothing of it to rewrite.
      if (!collection) continue;
      const entry = await contentStore.findEntryById(tx, collection.tableName, row.target_id, { lock: true });
      if (!entry) continue;
      const values = columnData(collection.fields, entry);
      const rewritten = rewriter.rewrite(values);
      const changes: Record<string, unknown> = rewritten === values ? {} : toColumns(collection.fields, diff(values, rewritten));
      if (entry._live !== null) {
        const stored: unknown = JSON.parse(entry._live);
        const live = rewriter.rewrite(stored);
        if (live !== stored) changes._live = JSON.stringify(live);
      }
      // The SEO image is a URL too (a copy of it sits in `_live` above while a draft is staged).
      if (entry._seo !== null) {
        const seo: unknown = JSON.parse(entry._seo);
        const rewritten = rewriter.rewrite(seo);
        if (rewritten !== seo) changes._seo = JSON.stringify(rewritten);
      }
      if (Object.keys(changes).length === 0) continue;
      await writeEntry(ctx, tx, collection, { kind: 'updated', row: entry, changes });
      changed++;
    }
    return changed;
  });
}

/** The fields whose values the rewrite replaced. */
function diff(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(after).filter(([key, value]) => value !== before[key]));
}

async function rewriteSections(ctx: AuthorizedContext, ids: string[], rewriter: UrlRewriter): Promise<number> {
  return inTransaction(ctx.db, async (tx) => {
    const sections = await store.lockSections(tx, ids);
    let changed = 0;
    for (const section of sections) {
      const content = JSON.parse(section.content) as unknown;
      const rewritten = rewriter.rewrite(content);
      if (rewritten === content) continue;
      await store.setSectionContent(tx, section.id, JSON.stringify(rewritten), ctx.clock.now().toISOString());
      changed++;
    }
    return changed;
  });
}
