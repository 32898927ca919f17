import { z } from 'zod';

export const PluginIdParams = z.object({ pluginId: z.string().min(1).max(64) });

export const PluginSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    version: z.string(),
    description: z.string(),
    enabled: z.boolean(),
    /** Where configuration loaded it from: a shipped plugin's id, a file, a package. */
    source: z.string(),
    hooks: z.array(z.string()).describe('The hooks it listens to, transactional ones included'),
    routes: z.array(z.object({ method: z.string(), path: z.string() })).describe('Its endpoints, relative to /_cms/api'),
    hasSettings: z.boolean(),
    settingsSchema: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe("Its settings as JSON Schema (what PUT /plugins/:pluginId/settings takes, defaults included), from which a form can be made; null when it takes none"),
  })
  .meta({ id: 'Plugin' });

export type PluginInfo = z.infer<typeof PluginSchema>;

export const PluginListResponse = z.object({ items: z.array(PluginSchema) });
export const PluginResponse = z.object({ item: PluginSchema });

/** Any object: the plugin's own schema checks it, naming each setting that fails. */
export const PluginSettingsBody = z.record(z.string(), z.unknown()).describe("The plugin's settings, checked by its schema; left-out settings take their defaults");
export const PluginSettingsResponse = z.object({ settings: z.record(z.string(), z.unknown()) });
