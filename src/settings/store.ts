import { runCompiled } from '../db/compiled.ts';
import type { Db } from '../db/connection.ts';
import { ReadCache } from '../db/read-cache.ts';

type SettingRow = { key: string; value: string };
const settingsCache = new ReadCache<readonly SettingRow[]>(1, ['settings']);

/** Every stored setting; read on most requests, so usually served from memory. */
export async function readSettingRows(db: Db): Promise<readonly SettingRow[]> {
  return (await settingsCache.get(db, 'all', () => runCompiled(db, 'settings.read', (kysely) => kysely.selectFrom('settings').select(['key', 'value']), [])))!;
}

export async function writeSetting(db: Db, key: string, value: string, at: string): Promise<void> {
  await db.kysely
    .insertInto('settings')
    .values({ key, value, updated_at: at })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value, updated_at: at }))
    .execute();
}

export async function deleteSetting(db: Db, key: string): Promise<void> {
  await db.kysely.deleteFrom('settings').where('key', '=', key).execute();
}
