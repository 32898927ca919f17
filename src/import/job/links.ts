import { setImmediate } from 'node:timers/promises';
import { columnData, toColumns } from '../../content/entries.ts';
import type { PortableTextBlock } from '../../content/value-types.ts';
import * as contentStore from '../../content/store.ts';
import { writeEntry } from '../../content/write.ts';
import { inTransaction } from '../../db/dialect.ts';
import { lockCollection } from '../../schema/lookup.ts';
import type { LoadedCollection } from '../../schema/store.ts';
import { itemRow, noteRow, type ImportRun } from './run-state.ts';
import type { AttachmentRef } from '../sources/types.ts';
import * as store from '../store.ts';

/**
 * The pass after every item exists: page hierarchy (`post_parent` → the `parent` reference) and
 * featured images (`_thumbnail_id` → the attachment's original URL, alt text and caption as an image
 * value, kept whether or not media are downloaded: the media import, now or later, rewrites the URL
 * to the library's file). A row's data is cleared in the transaction that links it, so a resumed
 * run links only what is left.
 */
export async function linkItems(run: ImportRun, signal: AbortSignal, onBatch: (count: number) => Promise<void>): Promise<void> {
  // Each batch starts after the last one's source id: the rows before it are linked, and reading
  // past them again made every batch slower than the last (50,000 posts: 12 s in this pass alone).
  for (let after = ''; ; ) {
    signal.throwIfAborted();
    const rows = await store.itemsWithData(run.ctx.db, run.sourceKey, 'post', after, 200);
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.source_id;
    await inTransaction(run.ctx.db, async (tx) => {
      const collections = new Map<string, LoadedCollection>();
      const parents = await store.importedIds(tx, run.sourceKey, 'post', rows.flatMap((row) => (parse(row).parent ? [parse(row).parent!] : [])));
      const attachments = await store.importedIds(tx, run.sourceKey, 'attachment', rows.flatMap((row) => (parse(row).featuredImage ? [parse(row).featuredImage!] : [])));
      const notes = [];
      const featured = [];
      for (const row of rows) {
        const links = parse(row);
        let collection = collections.get(row.collection!);
        if (!collection) {
          collection = await lockCollection(tx, row.collection!, 'share');
          collections.set(row.collection!, collection);
        }
        const values: Record<string, unknown> = {};
        if (links.parent) {
          const parent = parents.get(links.parent);
          if (parent && parent.collection === row.collection && collection.fields.some((field) => field.slug === 'parent')) values.parent = parent.target_id;
          else notes.push(noteRow(run, 'warning', row.source_id, null, `its parent ${links.parent} was not imported into ${row.collection}; it has no parent`));
        }
        if (links.featuredImage) {
          const attachment = attachments.get(links.featuredImage);
          const ref = attachment?.data ? (JSON.parse(attachment.data) as AttachmentRef) : undefined;
          if (ref?.url && collection.fields.some((field) => field.slug === 'featured_image')) {
            values.featured_image = { url: ref.url, ...(ref.alt ? { alt: ref.alt } : {}), ...(ref.caption ? { caption: ref.caption } : {}) };
            featured.push(itemRow(run, 'featured', row.source_id, attachment!.source_id));
          }
          else notes.push(noteRow(run, 'warning', row.source_id, null, `its featured image ${links.featuredImage} is not among the export's attachments`));
        }
        const entry = await contentStore.findEntryById(tx, collection.tableName, row.target_id, { lock: true });
        if (entry && links.reusableBlocks) {
          const content = columnData(collection.fields, entry).content as PortableTextBlock[] | null;
          const refs = content ? reusableRefs(content) : [];
          const sections = await store.importedIds(tx, run.sourceKey, 'section', refs);
          for (const ref of refs) if (!sections.has(ref)) notes.push(noteRow(run, 'warning', row.source_id, null, `its reusable block ${ref} is not in the export; kept as a reference to the source block`));
          if (content && sections.size > 0) values.content = resolveReusable(content, sections);
        }
        if (entry && Object.keys(values).length > 0) await writeEntry(run.ctx, tx, collection, { kind: 'updated', row: entry, changes: toColumns(collection.fields, values) });
        await tx.kysely.updateTable('import_items').set({ data: null }).where('source_key', '=', row.source_key).where('kind', '=', row.kind).where('source_id', '=', row.source_id).execute();
      }
      await store.insertNotes(tx, notes);
      await store.insertImportItems(tx, featured);
    });
    await onBatch(rows.length);
    // SQLite's calls return at once: without a turn of the event loop between batches, no request
    // would be answered until the pass is over.
    await setImmediate();
  }
}

function parse(row: store.ImportItemRow): { parent?: string; featuredImage?: string; reusableBlocks?: boolean } {
  return JSON.parse(row.data!) as { parent?: string; featuredImage?: string; reusableBlocks?: boolean };
}

type Tree = unknown;

/** The source ids of the reusable blocks the content refers to, wherever they sit (columns nest blocks). */
function reusableRefs(content: Tree): string[] {
  const refs = new Set<string>();
  const walk = (node: Tree) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (record._type === 'reusableBlock' && record.ref !== null && record.ref !== undefined) refs.add(String(record.ref));
      Object.values(record).forEach(walk);
    }
  };
  walk(content);
  return [...refs];
}

/** The content with each reusable block naming the section it became. */
function resolveReusable<T>(content: T, sections: Map<string, store.ImportItemRow>): T {
  const walk = (node: Tree): Tree => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const record = Object.fromEntries(Object.entries(node as Record<string, unknown>).map(([key, value]) => [key, walk(value)]));
    const section = record._type === 'reusableBlock' ? sections.get(String(record.ref)) : undefined;
    return section ? { ...record, sectionId: section.target_id } : record;
  };
  return walk(content) as T;
}
