import { defineRoute } from '../http/route.ts';
import { getSettings, updateSettings } from './operations.ts';
import { ReadSettingsResponse, SettingsSchema, UpdateSettingsBody } from './schemas.ts';

export const settingsRoutes = [
  defineRoute({ method: 'get', path: '/settings', tag: 'Settings', summary: 'All site settings', operation: getSettings, response: ReadSettingsResponse }),
  defineRoute({
    method: 'post',
    path: '/settings',
    tag: 'Settings',
    summary: 'Merge the given settings (null resets a key to its default); returns all settings',
    operation: updateSettings,
    body: UpdateSettingsBody,
    response: SettingsSchema,
  }),
];
