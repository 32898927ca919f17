import { isoNow } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import { firstFreeSlug, isUrlSafeSlug, slugify } from '../../core/slugs.ts';
import { inTransaction, type Transaction } from '../../db/dialect.ts';
import * as contentStore from '../../content/store.ts';
import { lockCollection } from '../../schema/lookup.ts';
import * as sectionStore from '../../sections/store.ts';
import { itemRow, noteRow, type BatchOutput, type ImportRun } from './run-state.ts';
import type { ImportRecord } from '../sources/types.ts';
import { applyAuthorMapping, loadStructure } from './structure.ts';
import * as store from '../store.ts';
import { writeItem } from './write-item.ts';

/**
 * Items are written in batches, one transaction each: the batch's entries, sections, menu items and
 * attachment records with one checkpoint row per source item, and the report's lines. A batch that
 * commits is never written again (its checkpoints say so); one that fails is written again item by
 * item, so one bad item fails alone and the rest go in.
 */

export const batchSize = 100;

/** The kind of checkpoint row each record kind leaves. */
function checkpointKind(record: ImportRecord): string | undefined {
  switch (record.kind) {
    case 'item':
      return 'post';
    case 'section':
      return 'section';
    case 'menuItem':
      return 'menu_item';
    case 'attachment':
      return 'attachment';
    default:
      return undefined;
  }
}

function sourceIdOf(record: ImportRecord): string {
  switch (record.kind) {
    case 'item':
      return record.item.sourceId;
    case 'section':
      return record.section.sourceId;
    case 'menuItem':
      return record.menuItem.sourceId;
    case 'attachment':
      return record.attachment.sourceId;
    case 'skipped':
      return record.sourceId;
    default:
      return '';
  }
}

function titleOf(record: ImportRecord): string | null {
  if (record.kind === 'item') return record.item.title || null;
  if (record.kind === 'skipped') return record.title || null;
  if (record.kind === 'section') return record.section.title;
  if (record.kind === 'menuItem') return record.menuItem.label || null;
  return null;
}

/**
 * Records of the batch this run still has to write: those no run of this source wrote, nor this job
 * noted. A record the source set aside has no checkpoint but its note, told apart from the notes of
 * the item that stands for its id (which the source gives before it) by its reason.
 */
async function pending(run: ImportRun, records: ImportRecord[]): Promise<{ todo: ImportRecord[]; existing: ImportRecord[] }> {
  const db = run.ctx.db;
  const byKind = new Map<string, string[]>();
  for (const record of records) {
    const kind = checkpointKind(record);
    if (kind !== undefined) byKind.set(kind, [...(byKind.get(kind) ?? []), sourceIdOf(record)]);
  }
  const done = new Map<string, store.ImportItemRow>();
  for (const [kind, ids] of byKind) for (const [id, row] of await store.importedIds(db, run.sourceKey, kind, ids)) done.set(`${kind}:${id}`, row);
  const notes = await store.handledNotes(db, run.jobId, records.map(sourceIdOf));
  const noted = new Set(notes.map((note) => note.source_id));
  const setAsideNoted = new Set(notes.filter((note) => note.kind === 'skipped').map((note) => `${note.source_id} ${note.message}`));
  const todo: ImportRecord[] = [];
  const existing: ImportRecord[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    if (record.kind === 'skipped') {
      if (!setAsideNoted.has(`${record.sourceId} ${record.reason}`)) todo.push(record);
      continue;
    }
    // A source that lists an item twice (the wxr source sets its own twins aside itself): the first one is imported.
    const key = `${checkpointKind(record)}:${sourceIdOf(record)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const row = done.get(key);
    if (row && row.job_id !== run.jobId && !noted.has(sourceIdOf(record))) existing.push(record);
    else if (!row && !noted.has(sourceIdOf(record))) todo.push(record);
  }
  return { todo, existing };
}

function emptyOutput(tx: Transaction): BatchOutput {
  return { items: [], notes: [], collections: new Map(), slugs: new Map(), takenSlugs: new Map(), db: tx };
}

/** Looks up at once which of the slugs the batch's items want are taken, per target collection. */
async function lookUpSlugs(run: ImportRun, batch: BatchOutput, tx: Transaction, records: ImportRecord[]): Promise<void> {
  const wanted = new Map<string, string[]>();
  for (const record of records) {
    if (record.kind !== 'item') continue;
    const collection = run.mappings[record.item.postType];
    if (collection !== undefined && record.item.slug !== '') wanted.set(collection, [...(wanted.get(collection) ?? []), record.item.slug]);
  }
  for (const [slug, slugs] of wanted) {
    const collection = await lockCollection(tx, slug, 'share');
    batch.collections.set(slug, collection);
    batch.takenSlugs.set(slug, new Set(await contentStore.slugsTaken(tx, collection.tableName, slugs, run.locale)));
  }
}

async function writeRecords(run: ImportRun, records: ImportRecord[], existing: ImportRecord[]): Promise<void> {
  await inTransaction(run.ctx.db, async (tx) => {
    const batch = emptyOutput(tx);
    for (const record of existing) batch.notes.push(noteRow(run, 'existing', sourceIdOf(record), titleOf(record), 'imported by an earlier import of this source; left as it is'));
    await lookUpSlugs(run, batch, tx, records);
    for (const record of records) await writeRecord(run, batch, tx, record);
    await store.insertImportItems(tx, batch.items);
    await store.insertNotes(tx, batch.notes);
  });
}

/** Writes the batch: what this run has not written yet, and a note for what an earlier import of the source made. */
export async function writeBatch(run: ImportRun, records: ImportRecord[], signal: AbortSignal): Promise<void> {
  const { todo, existing } = await pending(run, records);
  if (todo.length === 0 && existing.length === 0) return;
  try {
    await writeRecords(run, todo, existing);
  } catch (error) {
    signal.throwIfAborted();
    // Terms and bylines made in the rolled-back transaction are gone: forget them.
    await reloadStructure(run);
    if (todo.length <= 1 && existing.length === 0) return failAlone(run, todo[0], error);
    await writeRecords(run, [], existing);
    for (const record of todo) {
      try {
        await writeRecords(run, [record], []);
      } catch (itemError) {
        signal.throwIfAborted();
        await reloadStructure(run);
        await failAlone(run, record, itemError);
      }
    }
  }
}

async function reloadStructure(run: ImportRun): Promise<void> {
  await loadStructure(run);
  await applyAuthorMapping(run);
}

/**
 * An item whose write failed on its own: recorded as failed (import.md §7: logged, skipped, the
 * import goes on). When even that cannot be written, the database is gone: the error goes up and
 * the job is retried from its checkpoints.
 */
async function failAlone(run: ImportRun, record: ImportRecord | undefined, error: unknown): Promise<void> {
  if (!record) throw error;
  run.ctx.log.warn({ err: error, sourceId: sourceIdOf(record) }, 'import: an item could not be written');
  await store.insertNotes(run.ctx.db, [noteRow(run, 'failed', sourceIdOf(record), titleOf(record), `could not be written: ${(error as Error).message}`)]);
}

async function writeRecord(run: ImportRun, batch: BatchOutput, tx: Transaction, record: ImportRecord): Promise<void> {
  switch (record.kind) {
    case 'item':
      return writeItem(run, batch, tx, record.item);
    case 'section': {
      const { section } = record;
      const wanted = isUrlSafeSlug(section.slug) ? section.slug : slugify(section.slug) || slugify(section.title) || `block-${section.sourceId}`;
      let slug = wanted;
      if (await sectionStore.findSection(tx, wanted)) {
        const taken = new Set((await sectionStore.listSections(tx, { search: wanted, limit: 1000 })).map((row) => row.slug));
        taken.add(wanted);
        slug = firstFreeSlug(wanted, taken);
        batch.notes.push(noteRow(run, 'warning', section.sourceId, section.title, `section slug ${wanted} was taken; renamed to ${slug}`));
      }
      const now = isoNow(run.ctx.clock);
      const id = newId();
      await sectionStore.insertSection(tx, { id, slug, title: section.title.slice(0, 200), keywords: '[]', content: JSON.stringify(section.content), source: 'import', created_at: now, updated_at: now });
      batch.items.push(itemRow(run, 'section', section.sourceId, id));
      return;
    }
    case 'menuItem':
      if (run.options.includeMenus) batch.items.push(itemRow(run, 'menu_item', record.menuItem.sourceId, '', { data: record.menuItem }));
      return;
    case 'attachment':
      batch.items.push(itemRow(run, 'attachment', record.attachment.sourceId, '', { data: record.attachment }));
      return;
    case 'skipped':
      batch.notes.push(noteRow(run, 'skipped', record.sourceId, record.title || null, record.reason));
      return;
    default:
      return;
  }
}
