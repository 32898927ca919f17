import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import { limitLiteral, succeedsUnlessTaken } from '../db/dialect.ts';
import type { BylinesTable } from '../db/types.ts';

export type BylineRow = Selectable<BylinesTable>;

export async function listBylineRows(db: Db, options: { afterSlug?: string; limit: number }): Promise<BylineRow[]> {
  let query = db.kysely.selectFrom('bylines').selectAll().orderBy('slug').limit(limitLiteral(options.limit + 1));
  if (options.afterSlug !== undefined) query = query.where('slug', '>', options.afterSlug);
  return query.execute();
}

export async function findBylineById(db: Db, id: string): Promise<BylineRow | undefined> {
  return db.kysely.selectFrom('bylines').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findBylineByUser(db: Db, userId: string): Promise<BylineRow | undefined> {
  return db.kysely.selectFrom('bylines').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** The ids among `ids` that name a byline. */
export async function existingBylineIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.kysely.selectFrom('bylines').select('id').where('id', 'in', [...ids]).execute();
  return new Set(rows.map((row) => row.id));
}

/** The slugs among `candidates` already taken. */
export async function bylineSlugsTaken(db: Db, candidates: readonly string[]): Promise<Set<string>> {
  const rows = await db.kysely.selectFrom('bylines').select('slug').where('slug', 'in', [...candidates]).execute();
  return new Set(rows.map((row) => row.slug));
}

/** Adds a byline; false when its slug (or its user) is taken. */
export async function insertByline(db: Db, row: BylineRow): Promise<boolean> {
  return succeedsUnlessTaken(() => db.kysely.insertInto('bylines').values(row).execute());
}
