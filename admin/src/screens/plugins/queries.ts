import { queryOptions } from '@tanstack/react-query';
import { api, dataOf } from '../../api/client';

/** The loaded plugins, each with its state and its settings' JSON Schema. */
export const pluginsQuery = queryOptions({
  queryKey: ['plugins'],
  queryFn: () => dataOf(api.GET('/_cms/api/plugins')),
});

/** A plugin's current settings. */
export const pluginSettingsQuery = (pluginId: string) =>
  queryOptions({
    queryKey: ['plugins', pluginId, 'settings'],
    queryFn: () => dataOf(api.GET('/_cms/api/plugins/{pluginId}/settings', { params: { path: { pluginId } } })),
  });
