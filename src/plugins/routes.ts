import { defineRoute } from '../http/route.ts';
import { disablePlugin, enablePlugin, getPlugin, getPluginSettings, listPlugins, updatePluginSettings } from './operations.ts';
import { PluginIdParams, PluginListResponse, PluginResponse, PluginSettingsBody, PluginSettingsResponse } from './schemas.ts';

const tag = 'Plugins';

export const pluginRoutes = [
  defineRoute({ method: 'get', path: '/plugins', tag, summary: 'The loaded plugins, each with its state, hooks and routes', operation: listPlugins, response: PluginListResponse }),
  defineRoute({ method: 'get', path: '/plugins/:pluginId', tag, summary: 'One plugin', operation: getPlugin, params: PluginIdParams, response: PluginResponse }),
  defineRoute({ method: 'post', path: '/plugins/:pluginId/enable', tag, summary: 'Switch a plugin on, in every server process', operation: enablePlugin, params: PluginIdParams, response: PluginResponse }),
  defineRoute({ method: 'post', path: '/plugins/:pluginId/disable', tag, summary: 'Switch a plugin off: its hooks stop and its routes answer 404', operation: disablePlugin, params: PluginIdParams, response: PluginResponse }),
  defineRoute({ method: 'get', path: '/plugins/:pluginId/settings', tag, summary: "A plugin's settings", operation: getPluginSettings, params: PluginIdParams, response: PluginSettingsResponse }),
  defineRoute({
    method: 'put',
    path: '/plugins/:pluginId/settings',
    tag,
    summary: "Replace a plugin's settings, checked by its schema",
    operation: updatePluginSettings,
    params: PluginIdParams,
    body: PluginSettingsBody,
    response: PluginSettingsResponse,
    input: ({ params, body }) => ({ pluginId: params.pluginId, settings: body }),
  }),
];
