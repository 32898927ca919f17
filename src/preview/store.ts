import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import type { PreviewGrantsTable } from '../db/types.ts';

export type PreviewGrantRow = Selectable<PreviewGrantsTable>;

export async function insertPreviewGrant(db: Db, row: PreviewGrantRow): Promise<void> {
  await db.kysely.insertInto('preview_grants').values(row).execute();
}

export async function findPreviewGrant(db: Db, id: string): Promise<PreviewGrantRow | undefined> {
  return db.kysely.selectFrom('preview_grants').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Housekeeping: grants past their expiry can never be used again. */
export async function deleteExpiredPreviewGrants(db: Db, now: string): Promise<void> {
  await db.kysely.deleteFrom('preview_grants').where('expires_at', '<=', now).execute();
}
