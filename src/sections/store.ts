import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import { containsInsensitive, jsonArrayContainsInsensitive, limitLiteral, succeedsUnlessTaken } from '../db/dialect.ts';
import type { SectionsTable } from '../db/types.ts';

/** The SQL of sections. */

export type SectionRow = Selectable<SectionsTable>;

export interface SectionFilter {
  source?: string;
  /** Case-insensitive text in the title, the slug or one of the keywords. */
  search?: string;
  afterSlug?: string;
  limit: number;
}

/** A page of sections by slug, after `afterSlug`; `limit + 1` rows tell whether more follow. */
export async function listSections(db: Db, filter: SectionFilter): Promise<SectionRow[]> {
  let query = db.kysely.selectFrom('sections').selectAll();
  if (filter.source !== undefined) query = query.where('source', '=', filter.source);
  const search = filter.search;
  if (search !== undefined) {
    query = query.where(({ or }) => or([containsInsensitive('title', search), containsInsensitive('slug', search), jsonArrayContainsInsensitive(db, 'keywords', search)]));
  }
  if (filter.afterSlug !== undefined) query = query.where('slug', '>', filter.afterSlug);
  return query.orderBy('slug').limit(limitLiteral(filter.limit + 1)).execute();
}

export async function findSection(db: Db, slug: string): Promise<SectionRow | undefined> {
  return db.kysely.selectFrom('sections').selectAll().where('slug', '=', slug).executeTakeFirst();
}

/** Adds a section; false when its slug is taken. */
export async function insertSection(db: Db, row: SectionRow): Promise<boolean> {
  return succeedsUnlessTaken(() => db.kysely.insertInto('sections').values(row).execute());
}

/** Changes a section; false when a new slug is taken. */
export async function updateSection(db: Db, id: string, changes: Partial<Omit<SectionRow, 'id' | 'created_at'>>): Promise<boolean> {
  return succeedsUnlessTaken(() => db.kysely.updateTable('sections').set(changes).where('id', '=', id).execute());
}

export async function deleteSection(db: Db, id: string): Promise<void> {
  await db.kysely.deleteFrom('sections').where('id', '=', id).execute();
}
