import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import { limitLiteral, lockRows } from '../db/dialect.ts';
import type { ImportAnalysesTable, ImportConnectionsTable, ImportItemsTable, ImportNotesTable } from '../db/types.ts';
import type { AttachmentRef } from './sources/types.ts';

/** The SQL of imports: stored analyses, the map of imported source items, the report's notes. */

export type AnalysisRow = Selectable<ImportAnalysesTable>;
export type ImportItemRow = Selectable<ImportItemsTable>;
export type NoteRow = Selectable<ImportNotesTable>;

export async function insertAnalysis(db: Db, row: AnalysisRow): Promise<void> {
  await db.kysely.insertInto('import_analyses').values(row).execute();
}

export async function findAnalysis(db: Db, id: string): Promise<AnalysisRow | undefined> {
  return db.kysely.selectFrom('import_analyses').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The analyses not yet expired, newest first. */
export async function listAnalyses(db: Db, now: string, limit: number): Promise<AnalysisRow[]> {
  return db.kysely.selectFrom('import_analyses').selectAll().where('expires_at', '>', now).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limitLiteral(limit)).execute();
}

/** Removes analyses past their expiry; returns their files' keys for the caller to delete. */
export async function deleteExpiredAnalyses(db: Db, now: string): Promise<string[]> {
  const expired = await db.kysely.selectFrom('import_analyses').select(['id', 'storage_key']).where('expires_at', '<=', now).execute();
  if (expired.length === 0) return [];
  await db.kysely.deleteFrom('import_analyses').where('id', 'in', expired.map((row) => row.id)).execute();
  return expired.map((row) => row.storage_key);
}

/** The items among `sourceIds` an import of this source already made (a resumed or repeated run skips them). */
export async function importedIds(db: Db, sourceKey: string, kind: string, sourceIds: readonly string[]): Promise<Map<string, ImportItemRow>> {
  if (sourceIds.length === 0) return new Map();
  const rows = await db.kysely.selectFrom('import_items').selectAll().where('source_key', '=', sourceKey).where('kind', '=', kind).where('source_id', 'in', [...sourceIds]).execute();
  return new Map(rows.map((row) => [row.source_id, row]));
}

/** Every item of a kind this source has had imported (terms, bylines, menus: small sets). */
export async function importedOfKind(db: Db, sourceKey: string, kind: string): Promise<ImportItemRow[]> {
  return db.kysely.selectFrom('import_items').selectAll().where('source_key', '=', sourceKey).where('kind', '=', kind).execute();
}

/** The entries these source items became (kind `post`), in slices: a statement has a limit on its parameters. */
export async function importedPosts(db: Db, sourceKey: string, sourceIds: readonly string[]): Promise<ImportItemRow[]> {
  const found: ImportItemRow[] = [];
  for (let start = 0; start < sourceIds.length; start += 500) {
    found.push(...(await db.kysely.selectFrom('import_items').selectAll().where('source_key', '=', sourceKey).where('kind', '=', 'post').where('source_id', 'in', sourceIds.slice(start, start + 500)).execute()));
  }
  return found;
}

export async function insertImportItems(db: Db, rows: ImportItemRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.kysely.insertInto('import_items').values(rows).execute();
}

/**
 * Rows that only name another row's target a second way (a term by its numeric id): one an earlier
 * export of the same site recorded already stays as it is.
 */
export async function insertAliases(db: Db, rows: ImportItemRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.kysely.insertInto('import_items').values(rows).onConflict((conflict) => conflict.doNothing()).execute();
}

export async function setImportItemTarget(db: Db, row: Pick<ImportItemRow, 'source_key' | 'kind' | 'source_id'>, targetId: string): Promise<void> {
  await db.kysely.updateTable('import_items').set({ target_id: targetId }).where('source_key', '=', row.source_key).where('kind', '=', row.kind).where('source_id', '=', row.source_id).execute();
}

/** The rows of a kind that carry data for a later pass, a page at a time by source id. */
/** How many items of a kind still have links to resolve (the links pass clears each one's data). */
export async function countItemsWithData(db: Db, sourceKey: string, kind: string): Promise<number> {
  const row = await db.kysely.selectFrom('import_items').select((select) => select.fn.countAll<string | number>().as('count')).where('source_key', '=', sourceKey).where('kind', '=', kind).where('data', 'is not', null).executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function itemsWithData(db: Db, sourceKey: string, kind: string, after: string, limit: number): Promise<ImportItemRow[]> {
  return db.kysely
    .selectFrom('import_items')
    .selectAll()
    .where('source_key', '=', sourceKey)
    .where('kind', '=', kind)
    .where('data', 'is not', null)
    .where('source_id', '>', after)
    .orderBy('source_id')
    .limit(limitLiteral(limit))
    .execute();
}

export async function insertNotes(db: Db, rows: NoteRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.kysely.insertInto('import_notes').values(rows).execute();
}

/** The notes this job wrote of these source items as skipped, failed or already there: handled. */
export async function handledNotes(db: Db, jobId: string, sourceIds: readonly string[]): Promise<Pick<NoteRow, 'source_id' | 'kind' | 'message'>[]> {
  if (sourceIds.length === 0) return [];
  return db.kysely
    .selectFrom('import_notes')
    .select(['source_id', 'kind', 'message'])
    .where('job_id', '=', jobId)
    .where('kind', 'in', ['skipped', 'failed', 'existing'])
    .where('source_id', 'in', [...sourceIds])
    .execute();
}

export async function listNotes(db: Db, jobId: string): Promise<NoteRow[]> {
  return db.kysely.selectFrom('import_notes').selectAll().where('job_id', '=', jobId).orderBy('created_at').execute();
}

/** Entries, sections and media references a job made, by collection (null for sections and attachments). */
export async function countsByCollection(db: Db, jobId: string): Promise<{ kind: string; collection: string | null; count: number }[]> {
  const rows = await db.kysely
    .selectFrom('import_items')
    .select(['kind', 'collection', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('job_id', '=', jobId)
    .groupBy(['kind', 'collection'])
    .execute();
  return rows.map((row) => ({ kind: row.kind, collection: row.collection, count: Number(row.count) }));
}

/** The comments written with the entries this job imported, by moderation state. */
export async function commentsOfJob(db: Db, jobId: string): Promise<{ status: string; count: number }[]> {
  const rows = await db.kysely
    .selectFrom('comments')
    .select(['status', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('entry_id', 'in', (eb) => eb.selectFrom('import_items').select('target_id').where('job_id', '=', jobId).where('kind', '=', 'post'))
    .groupBy('status')
    .execute();
  return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
}

/** The attachments recorded for this source, for the media import. */
export async function attachmentsOfSource(db: Db, sourceKey: string): Promise<ImportItemRow[]> {
  return db.kysely.selectFrom('import_items').selectAll().where('source_key', '=', sourceKey).where('kind', '=', 'attachment').orderBy('source_id').execute();
}

/** The newest job of `kind` importing a file of this name that has not succeeded. */
export async function latestUnfinishedImport(db: Db, kind: string, filename: string): Promise<{ id: string; state: string } | undefined> {
  const jobs = await db.kysely.selectFrom('jobs').select(['id', 'payload', 'state']).where('kind', '=', kind).where('state', '!=', 'succeeded').orderBy('created_at', 'desc').execute();
  for (const job of jobs) {
    const { analysisId } = JSON.parse(job.payload) as { analysisId: string };
    const analysis = await findAnalysis(db, analysisId);
    if (analysis?.filename === filename) return { id: job.id, state: job.state };
  }
  return undefined;
}

/** The recorded attachments with these source ids, from any site (the caller matches them by URL too). */
export async function attachmentsById(db: Db, sourceIds: readonly string[]): Promise<AttachmentRef[]> {
  const found: AttachmentRef[] = [];
  // In slices: a statement has a limit on its parameters.
  for (let start = 0; start < sourceIds.length; start += 500) {
    const rows = await db.kysely.selectFrom('import_items').select('data').where('kind', '=', 'attachment').where('source_id', 'in', sourceIds.slice(start, start + 500)).execute();
    for (const row of rows) if (row.data !== null) found.push(JSON.parse(row.data) as AttachmentRef);
  }
  return found;
}

/** Every site's items of a kind, a page at a time in key order (after the given key). */
export async function importedPage(db: Db, kind: string, after: { sourceKey: string; sourceId: string } | undefined, limit: number): Promise<ImportItemRow[]> {
  let query = db.kysely.selectFrom('import_items').selectAll().where('kind', '=', kind);
  if (after) query = query.where((eb) => eb.or([eb('source_key', '>', after.sourceKey), eb.and([eb('source_key', '=', after.sourceKey), eb('source_id', '>', after.sourceId)])]));
  return query.orderBy('source_key').orderBy('source_id').limit(limitLiteral(limit)).execute();
}

/** Sections an import made, locked for the rewrite of their content. */
export async function lockSections(db: Db, ids: readonly string[]): Promise<{ id: string; content: string }[]> {
  return lockRows(db, db.kysely.selectFrom('sections').select(['id', 'content']).where('id', 'in', [...ids])).execute();
}

export async function setSectionContent(db: Db, id: string, content: string, now: string): Promise<void> {
  await db.kysely.updateTable('sections').set({ content, updated_at: now }).where('id', '=', id).execute();
}

export type ConnectionRow = Selectable<ImportConnectionsTable>;

export async function insertConnection(db: Db, row: ConnectionRow): Promise<void> {
  await db.kysely.insertInto('import_connections').values(row).execute();
}

/** Takes the admin's connection by its state: deleted as it is read, so a state is used once, and only by whoever started it. */
export async function takeConnection(db: Db, stateHash: string, userId: string): Promise<ConnectionRow | undefined> {
  return db.kysely.deleteFrom('import_connections').where('state_hash', '=', stateHash).where('user_id', '=', userId).returningAll().executeTakeFirst();
}

export async function deleteExpiredConnections(db: Db, now: string): Promise<void> {
  await db.kysely.deleteFrom('import_connections').where('expires_at', '<=', now).execute();
}
