import type { z } from 'zod';
import { isoNow } from '../core/clock.ts';
import { validationError } from '../core/errors.ts';
import { access, defineOperation } from '../core/operation.ts';
import { inTransaction, serializeTransactions } from '../db/dialect.ts';
import { publicReadEnabled, readSettings } from './read.ts';
import { settingDefaults, type PublicSettings, type SettingKey, type Settings, type UpdateSettingsBody } from './schemas.ts';
import * as store from './store.ts';

// An arbitrary constant naming the settings among the database's advisory locks.
const settingsLockKey = 7_346_121_905_114;

/**
 * All settings; with `publicRead` on, the public gets the ones a site's pages show (title, tagline,
 * locales…), not the administrative `publicRead` itself.
 */
export const getSettings = defineOperation({
  name: 'settings.get',
  access: access.scope('content:read', { publicWhen: publicReadEnabled }),
  async run(ctx): Promise<Settings | PublicSettings> {
    const settings = await readSettings(ctx.db);
    if (ctx.principal !== null) return settings;
    const { publicRead: _administrative, ...site } = settings;
    return site;
  },
});

function isMembers(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const updateSettings = defineOperation({
  name: 'settings.update',
  access: access.scope('admin'),
  async run(ctx, input: z.output<typeof UpdateSettingsBody>): Promise<Settings> {
    return inTransaction(ctx.db, async (db) => {
      // Two updates at once (one moving defaultLocale, one shrinking locales) must not both pass the check.
      await serializeTransactions(db, settingsLockKey);
      const merged: Record<string, unknown> = { ...(await readSettings(db)) };
      for (const [key, value] of Object.entries(input)) {
        if (value === undefined) continue;
        const current = merged[key];
        // A setting made of members (seo) takes the members given over the ones it has.
        merged[key] = value === null ? settingDefaults[key as SettingKey] : isMembers(current) ? { ...current, ...(value as Record<string, unknown>) } : value;
      }
      const settings = merged as Settings;
      if (!settings.locales.includes(settings.defaultLocale)) {
        throw validationError([{ path: 'locales', message: `Must contain the default locale ${settings.defaultLocale}` }]);
      }
      const now = isoNow(ctx.clock);
      for (const [key, value] of Object.entries(input)) {
        if (value === undefined) continue;
        if (value === null) await store.deleteSetting(db, key);
        else await store.writeSetting(db, key, JSON.stringify(merged[key]), now);
      }
      return settings;
    });
  },
});
