import type { Context } from '../core/context.ts';
import type { Db } from '../db/connection.ts';
import { settingDefaults, type Settings } from './schemas.ts';
import * as store from './store.ts';

/** Stored values over the defaults. Values were validated when written, so reads only decode them. */
export async function readSettings(db: Db): Promise<Settings> {
  const settings: Record<string, unknown> = { ...settingDefaults };
  for (const row of await store.readSettingRows(db)) {
    if (row.key in settingDefaults) settings[row.key] = JSON.parse(row.value);
  }
  return settings as Settings;
}

/** Whether the public may read published content, search and media (setting `publicRead`, DECISIONS §2). */
export async function publicReadEnabled(ctx: Context): Promise<boolean> {
  return (await readSettings(ctx.db)).publicRead;
}
