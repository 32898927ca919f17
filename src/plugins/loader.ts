import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { auditLogPlugin } from './audit-log/plugin.ts';
import { PluginHost } from './host.ts';
import type { LoadedPlugin } from './types.ts';
import { hookNames, type PluginDefinition } from './types.ts';
import { webhooksPlugin } from './webhooks/plugin.ts';

/** The plugins shipped in the repository, named in PLUGINS by their id. */
const shippedPlugins: Record<string, PluginDefinition<unknown>> = {
  webhooks: webhooksPlugin as PluginDefinition<unknown>,
  'audit-log': auditLogPlugin as PluginDefinition<unknown>,
};

/** Paths Folio answers itself under `/plugins/:id`; a plugin route may not take them. */
const reservedRoutePaths = new Set(['', '/', '/enable', '/disable', '/settings']);

export class PluginLoadError extends Error {
  override name = 'PluginLoadError';
}

/**
 * Loads and checks the configured plugins, in order: a shipped plugin's id, a local file (a path
 * starting with `.` or `/`, from the working directory) or an npm package, whose default export (or
 * `plugin` export) is the definition. A plugin that cannot be loaded or is malformed stops the start
 * with a message naming it.
 */
export async function loadPlugins(specifiers: readonly string[], options: { hookTimeoutMs: number; cwd?: string }): Promise<PluginHost> {
  const loaded: LoadedPlugin[] = [];
  for (const source of specifiers) {
    const definition = shippedPlugins[source] ?? (await importPlugin(source, options.cwd ?? process.cwd()));
    const problems = checkPlugin(definition);
    const id = (definition as { id?: unknown } | undefined)?.id;
    if (problems.length === 0 && loaded.some((other) => other.definition.id === id)) problems.push(`another plugin already has the id ${String(id)}`);
    if (problems.length > 0) throw new PluginLoadError(`Plugin ${source}${typeof id === 'string' ? ` (${id})` : ''} is not a valid Folio plugin: ${problems.join('; ')}`);
    loaded.push({ definition: definition as PluginDefinition<unknown>, source });
  }
  return new PluginHost(loaded, { hookTimeoutMs: options.hookTimeoutMs });
}

async function importPlugin(source: string, cwd: string): Promise<unknown> {
  const local = source.startsWith('.') || path.isAbsolute(source);
  const specifier = local ? pathToFileURL(path.resolve(cwd, source)).href : source;
  let module: { default?: unknown; plugin?: unknown };
  try {
    module = (await import(specifier)) as typeof module;
  } catch (error) {
    throw new PluginLoadError(`Plugin ${source} could not be loaded: ${(error as Error).message}`);
  }
  return module.default ?? module.plugin;
}

const functionValue = z.custom<(...args: unknown[]) => unknown>((value) => typeof value === 'function', 'must be a function');

const definitionShape = z.object({
  id: z.string().regex(/^[a-z][a-z0-9-]{0,62}$/, 'must be lower-case letters, digits and dashes, starting with a letter'),
  name: z.string().min(1),
  version: z.string().regex(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/, 'must be a semantic version such as 1.0.0'),
  description: z.string(),
  settings: z.custom<z.ZodType>((value) => value instanceof z.ZodType, 'must be a zod schema').optional(),
  enabledByDefault: z.boolean().optional(),
  hooks: z.partialRecord(z.enum(hookNames), functionValue).optional(),
  transactionalHooks: z.partialRecord(z.enum(hookNames.filter((name) => name !== 'content:beforeSave')), functionValue).optional(),
  consumeEvents: functionValue.optional(),
  routes: z
    .array(
      z.object({
        method: z.enum(['get', 'post', 'put', 'patch', 'delete']),
        path: z.string().refine((value) => value.startsWith('/') && !reservedRoutePaths.has(value), 'must start with / and not be one of Folio’s own plugin paths'),
        invoke: functionValue,
        operation: z.object({ name: z.string(), access: z.object({ kind: z.string() }) }),
      }),
    )
    .optional(),
  background: functionValue.optional(),
});

/** What is wrong with a module's definition, each problem named by its key. */
function checkPlugin(definition: unknown): string[] {
  const parsed = definitionShape.strict().safeParse(definition);
  if (!parsed.success) return parsed.error.issues.map((issue) => `${issue.path.join('.') || 'the export'} ${issue.message}`);
  const defaults = parsed.data.settings?.safeParse({});
  if (defaults && !defaults.success) return [`settings must give every setting a default ({} fails: ${defaults.error.issues.map((issue) => issue.path.join('.')).join(', ')})`];
  return [];
}
