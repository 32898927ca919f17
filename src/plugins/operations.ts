import { z } from 'zod';
import { isoNow } from '../core/clock.ts';
import { validationError } from '../core/errors.ts';
import { access, defineOperation, type AuthorizedContext } from '../core/operation.ts';
import { toIssues } from '../core/validate.ts';
import { inTransaction } from '../db/dialect.ts';
import { afterHookNames } from './event-types.ts';
import { PluginHost } from './host.ts';
import type { LoadedPlugin } from './types.ts';
import type { PluginInfo } from './schemas.ts';
import { writePluginState } from './store.ts';

/** Plugins are for admins (DECISIONS §2), reading included: their settings may hold secrets. */
const adminOnly = access.scope('admin');

function hostOf(ctx: AuthorizedContext): PluginHost {
  // A context without plugins (a test, a bench) has none to show: every id is unknown.
  return ctx.plugins ?? emptyHost;
}

async function describePlugin(ctx: AuthorizedContext, plugin: LoadedPlugin): Promise<PluginInfo> {
  const { definition } = plugin;
  const state = await hostOf(ctx).stateOf(ctx.db, plugin, ctx.log);
  // A plugin that consumes queued events hears every after-hook.
  const hooks = [...new Set([...Object.keys(definition.hooks ?? {}), ...Object.keys(definition.transactionalHooks ?? {}), ...(definition.consumeEvents ? afterHookNames : [])])];
  return {
    id: definition.id,
    name: definition.name,
    version: definition.version,
    description: definition.description,
    enabled: state.enabled,
    source: plugin.source,
    hooks,
    routes: (definition.routes ?? []).map((route) => ({ method: route.method.toUpperCase(), path: `/plugins/${definition.id}${route.path}` })),
    hasSettings: definition.settings !== undefined,
    settingsSchema: definition.settings ? settingsJsonSchema(definition.settings) : null,
  };
}

const jsonSchemas = new WeakMap<z.ZodType, Record<string, unknown>>();

/** A plugin's settings schema as JSON Schema, as a client sends them (defaults optional); made once per plugin. */
function settingsJsonSchema(schema: z.ZodType): Record<string, unknown> {
  let json = jsonSchemas.get(schema);
  if (!json) {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    jsonSchemas.set(schema, (json = rest));
  }
  return json;
}

export const listPlugins = defineOperation({
  name: 'plugins.list',
  access: adminOnly,
  async run(ctx): Promise<{ items: PluginInfo[] }> {
    const items = [];
    for (const plugin of hostOf(ctx).plugins) items.push(await describePlugin(ctx, plugin));
    return { items };
  },
});

export const getPlugin = defineOperation({
  name: 'plugins.get',
  access: adminOnly,
  async run(ctx, input: { pluginId: string }): Promise<{ item: PluginInfo }> {
    return { item: await describePlugin(ctx, hostOf(ctx).require(input.pluginId)) };
  },
});

/** Enabling and disabling are one write, seen by every process at its next request (plugins/store.ts). */
function switchOperation(name: string, enabled: boolean) {
  return defineOperation({
    name,
    access: adminOnly,
    async run(ctx, input: { pluginId: string }): Promise<{ item: PluginInfo }> {
      const plugin = hostOf(ctx).require(input.pluginId);
      await writePluginState(ctx.db, plugin.definition.id, { enabled }, { enabled }, isoNow(ctx.clock));
      return { item: await describePlugin(ctx, plugin) };
    },
  });
}

export const enablePlugin = switchOperation('plugins.enable', true);
export const disablePlugin = switchOperation('plugins.disable', false);

export const getPluginSettings = defineOperation({
  name: 'plugins.getSettings',
  access: adminOnly,
  async run(ctx, input: { pluginId: string }): Promise<{ settings: Record<string, unknown> }> {
    const plugin = hostOf(ctx).require(input.pluginId);
    return { settings: (await hostOf(ctx).stateOf(ctx.db, plugin, ctx.log)).settings as Record<string, unknown> };
  },
});

/** Replaces the settings with the body, checked by the plugin's schema (left-out settings take their defaults). */
export const updatePluginSettings = defineOperation({
  name: 'plugins.updateSettings',
  access: adminOnly,
  async run(ctx, input: { pluginId: string; settings: Record<string, unknown> }): Promise<{ settings: Record<string, unknown> }> {
    const plugin = hostOf(ctx).require(input.pluginId);
    const schema = plugin.definition.settings;
    if (!schema) {
      if (Object.keys(input.settings).length > 0) throw validationError(Object.keys(input.settings).map((key) => ({ path: key, message: `${plugin.definition.id} has no settings` })));
      return { settings: {} };
    }
    const parsed = schema.safeParse(input.settings);
    if (!parsed.success) throw validationError(toIssues(parsed.error.issues));
    await inTransaction(ctx.db, async (tx) => {
      const current = await hostOf(ctx).stateOf(tx, plugin);
      await writePluginState(tx, plugin.definition.id, { settings: JSON.stringify(parsed.data) }, { enabled: current.enabled }, isoNow(ctx.clock));
    });
    return { settings: parsed.data as Record<string, unknown> };
  },
});

const emptyHost = new PluginHost([], { hookTimeoutMs: 0 });
