import { z } from 'zod';
import { LocaleTag } from '../core/locale.ts';
import { SiteSeoSettings, SiteSeoUpdate, siteSeoDefaults } from '../seo/settings.ts';

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** Each setting's rule and default (DECISIONS §3b). */
export const settingSchemas = {
  siteTitle: z.string().max(200),
  tagline: z.string().max(500),
  postsPerPage: z.number().int().min(1).max(100),
  siteUrl: z.union([z.literal(''), z.url({ protocol: /^https?$/, error: 'Must be an http(s) URL' }).max(2048)]),
  timezone: z.string().max(64).refine(isTimeZone, 'Must be an IANA time zone such as Europe/Paris'),
  defaultLocale: LocaleTag,
  locales: z
    .array(LocaleTag)
    .min(1)
    .max(100)
    .refine((list) => new Set(list).size === list.length, 'Must not list a locale twice'),
  publicRead: z.boolean(),
  seo: SiteSeoSettings,
};

export type SettingKey = keyof typeof settingSchemas;
export type Settings = { [K in SettingKey]: z.output<(typeof settingSchemas)[K]> };

export const settingDefaults: Settings = {
  siteTitle: 'Folio',
  tagline: '',
  postsPerPage: 10,
  siteUrl: '',
  timezone: 'UTC',
  defaultLocale: 'en',
  locales: ['en'],
  publicRead: false,
  seo: siteSeoDefaults,
};

export const SettingsSchema = z.object(settingSchemas).meta({ id: 'Settings' });

/** What the public reads while `publicRead` is on: everything but that switch. */
export type PublicSettings = Omit<Settings, 'publicRead'>;
export const ReadSettingsResponse = SettingsSchema.partial({ publicRead: true }).describe('All settings; the public (publicRead on) gets them without publicRead');

/**
 * A partial update: given keys merge, `null` resets a key to its default, unknown keys are refused.
 * A setting made of members (`seo`) merges member by member.
 */
export const UpdateSettingsBody = z.strictObject({
  ...(Object.fromEntries(Object.entries(settingSchemas).map(([key, schema]) => [key, schema.nullable().optional()])) as {
    [K in SettingKey]: z.ZodOptional<z.ZodNullable<(typeof settingSchemas)[K]>>;
  }),
  seo: SiteSeoUpdate.nullable().optional(),
});
