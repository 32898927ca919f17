import type { Logger } from 'pino';
import { isoNow } from '../core/clock.ts';
import type { Context } from '../core/context.ts';
import { AppError, logFailure, notFound } from '../core/errors.ts';
import { JsonWriter } from '../core/raw-json.ts';
import type { Db } from '../db/connection.ts';
import type { Transaction } from '../db/dialect.ts';
import type { Route } from '../http/route.ts';
import { eventTypeOf, resourceOf, takesEventType } from './event-types.ts';
import { handOverTo, startEventDispatcher } from './event-queue.ts';
import { queueEvent, readPluginStates, writePluginState, type StoredPluginState } from './store.ts';
import type { AfterHookName, BackgroundContext, BackgroundService, HookContext, HookEvents, HookName, LoadedPlugin, OutgoingEvent } from './types.ts';

declare module '../core/context.ts' {
  interface ContextServices {
    /** The plugins this process loaded, whose hooks the operations call; absent: none. */
    plugins?: PluginHost;
  }
}

/** A plugin's state as the operations use it: switched on or off, its settings parsed. */
export interface PluginState {
  enabled: boolean;
  settings: unknown;
}

/** What a hook runs with besides its event: the caller's log and clock. */
export type HookRuntime = Pick<Context, 'log' | 'clock'>;

/**
 * The plugins of one process and the one place hooks are called from. Whether a plugin is on, and
 * its settings, are read from the database when they are needed (cached while nothing changed), so
 * a switch made by any process takes effect everywhere at the next request.
 */
export class PluginHost {
  readonly plugins: readonly LoadedPlugin[];
  private readonly hookTimeoutMs: number;
  private readonly byId: Map<string, LoadedPlugin>;
  private readonly json = new JsonWriter();

  constructor(plugins: readonly LoadedPlugin[], options: { hookTimeoutMs: number }) {
    this.plugins = plugins;
    this.hookTimeoutMs = options.hookTimeoutMs;
    this.byId = new Map(plugins.map((plugin) => [plugin.definition.id, plugin]));
  }

  find(id: string): LoadedPlugin | undefined {
    return this.byId.get(id);
  }

  require(id: string): LoadedPlugin {
    const plugin = this.find(id);
    if (!plugin) throw notFound(`Plugin ${id}`);
    return plugin;
  }

  async stateOf(db: Db, plugin: LoadedPlugin, log?: Logger): Promise<PluginState> {
    return stateIn(await readPluginStates(db), plugin, log);
  }

  /** Folio's routes for the plugins' own: under `/plugins/:id`, answering 404 while the plugin is off. */
  routes(): Route[] {
    return this.plugins.flatMap((plugin) =>
      (plugin.definition.routes ?? []).map((route) => ({
        ...route,
        path: `/plugins/${plugin.definition.id}${route.path}`,
        invoke: async (ctx: Context, readParts: Parameters<Route['invoke']>[1]) => {
          if (!(await this.stateOf(ctx.db, plugin)).enabled) throw notFound(`Plugin ${plugin.definition.id} is disabled; endpoint`);
          return route.invoke(ctx, readParts);
        },
      })),
    );
  }

  /**
   * Runs the enabled plugins' `content:beforeSave` hooks in order, each given the data the previous
   * one returned. A hook that refuses (a VALIDATION_ERROR) refuses the save; one that fails otherwise
   * or outlasts the time limit is logged and skipped, and the save goes on.
   */
  async beforeSave(ctx: HookRuntime & { db: Db }, event: HookEvents['content:beforeSave']): Promise<Record<string, unknown>> {
    let data = event.data;
    for (const { plugin, settings } of await this.listening(ctx.db, 'content:beforeSave', ctx.log)) {
      const hook = plugin.definition.hooks!['content:beforeSave']!;
      try {
        const result = await withTimeLimit(Promise.resolve(hook({ ...event, data }, this.hookContext(ctx, plugin, settings))), this.hookTimeoutMs);
        if (result && typeof result === 'object' && isRecord(result.data)) data = result.data;
      } catch (error) {
        if (error instanceof AppError && error.code === 'VALIDATION_ERROR') throw error;
        ctx.log.error({ err: error, plugin: plugin.definition.id, hook: 'content:beforeSave' }, 'plugin hook failed; the save goes on without it');
      }
    }
    return data;
  }

  /**
   * Tells the enabled plugins of an event: transactional hooks now, in `tx` (a throw rolls the change
   * back); one queued row for those that consume events in batches (event-queue.ts); the others once
   * `tx` has committed, their failures logged and never the caller's. The event as hooks get it is
   * built only if one listens; the queue takes the serializable form's JSON, with an entry's field
   * values only if a consumer asked for this event's (`takeEventData`).
   */
  async emit<E extends AfterHookName>(ctx: HookRuntime, tx: Transaction, name: E, event: OutgoingEvent<E>): Promise<void> {
    const listening = await this.listening(tx, name, ctx.log);
    let value: HookEvents[E] | undefined;
    const valueOf = () => (value ??= event.value());
    for (const { plugin, settings } of listening) {
      const hook = plugin.definition.transactionalHooks?.[name];
      if (hook) await hook(valueOf(), { ...this.hookContext(ctx, plugin, settings), db: tx });
    }
    const consuming = listening.filter(({ plugin }) => plugin.definition.consumeEvents);
    if (consuming.length > 0) {
      const type = eventTypeOf[name];
      const queued = event.serializable(consuming.some(({ eventData }) => eventData !== null && takesEventType(eventData, type)));
      const consumers = consuming.map(({ plugin }) => plugin.definition.id);
      const resource = resourceOf(name, queued);
      await queueEvent(tx, { name, at: isoNow(ctx.clock), resource: `${resource.type}:${resource.id}`, consumers: `,${consumers.join(',')},`, event: this.json.write(queued) });
    }
    const after = listening.filter(({ plugin }) => plugin.definition.hooks?.[name]);
    if (after.length === 0) return;
    const hookEvent = valueOf();
    tx.afterCommit(() => {
      for (const { plugin, settings } of after) {
        const hook = plugin.definition.hooks![name] as (event: HookEvents[E], ctx: HookContext<unknown>) => void | Promise<void>;
        void Promise.resolve()
          .then(() => hook(hookEvent, this.hookContext(ctx, plugin, settings)))
          .catch((error: unknown) => logFailure(ctx.log, error, 'plugin hook failed', { plugin: plugin.definition.id, hook: name }));
      }
    });
  }

  /**
   * Hands the plugins that consume events every event waiting for them, in batches; resolves with
   * how many were handed over. For a reader that must see every change committed before it asked
   * (the audit log's list, a webhook pass). All of them at once, as the dispatcher does: each event
   * row is then taken off the queue in one write, where a hand-over to one plugin would mark the row
   * and leave its delete to the next. Never throws: a plugin that fails is logged and its events stay
   * queued.
   */
  async handOverQueuedEvents(ctx: HookRuntime & { db: Db }): Promise<number> {
    return handOverTo(ctx, this.plugins, async (plugin, tx) => ({ ...this.hookContext(ctx, plugin, (await this.stateOf(tx, plugin, ctx.log)).settings), db: tx }));
  }

  /**
   * Which events `pluginId` takes with the entry's field values from the queue, from the next change
   * on (event types, or `*`); every other entry event reaches it without them (decisions/0032). In
   * `db`'s transaction when it is one, beside the change that calls for it.
   */
  async takeEventData(ctx: HookRuntime & { db: Db }, pluginId: string, eventTypes: readonly string[]): Promise<void> {
    const plugin = this.require(pluginId);
    const { enabled } = await this.stateOf(ctx.db, plugin, ctx.log);
    await writePluginState(ctx.db, pluginId, { eventData: eventTypes }, { enabled }, isoNow(ctx.clock));
  }

  /** Starts every plugin's background work in this process, and the hand-over of queued events (the CLI starts none). */
  startBackground(ctx: BackgroundContext): BackgroundService {
    const services = this.plugins.flatMap((plugin) => (plugin.definition.background ? [plugin.definition.background(ctx)] : []));
    if (this.plugins.some((plugin) => plugin.definition.consumeEvents)) services.push(startEventDispatcher(ctx, () => this.handOverQueuedEvents(ctx)));
    return {
      stop: async () => {
        await Promise.all(services.map((service) => service.stop()));
      },
    };
  }

  /** The enabled plugins with a hook for `name`, with their settings; no query when no plugin has one. */
  private async listening(db: Db, name: HookName, log: Logger): Promise<{ plugin: LoadedPlugin; settings: unknown; eventData: ReadonlySet<string> | null }[]> {
    const candidates = this.plugins.filter((plugin) => plugin.definition.hooks?.[name] || (name !== 'content:beforeSave' && (plugin.definition.transactionalHooks?.[name] || plugin.definition.consumeEvents)));
    if (candidates.length === 0) return [];
    const stored = await readPluginStates(db);
    const listening = [];
    for (const plugin of candidates) {
      const state = stateIn(stored, plugin, log);
      if (state.enabled) listening.push({ plugin, settings: state.settings, eventData: stored.get(plugin.definition.id)?.eventData ?? null });
    }
    return listening;
  }

  private hookContext(ctx: HookRuntime, plugin: LoadedPlugin, settings: unknown): HookContext<unknown> {
    return { pluginId: plugin.definition.id, settings, log: ctx.log.child({ plugin: plugin.definition.id }), clock: ctx.clock };
  }
}

/** A plugin's state from the stored rows: its defaults when it has none. */
function stateIn(stored: Map<string, StoredPluginState>, plugin: LoadedPlugin, log?: Logger): PluginState {
  const row = stored.get(plugin.definition.id);
  return { enabled: row?.enabled ?? plugin.definition.enabledByDefault ?? true, settings: settingsOf(plugin, row?.settings ?? null, log) };
}

/**
 * Settings as parsed from the stored text they came from, per plugin: every hook call needs them,
 * and reading the JSON through the schema each time cost more than the hook itself. Frozen, since
 * every call shares them.
 */
const parsedSettings = new WeakMap<LoadedPlugin, { stored: string | null; settings: unknown }>();

function settingsOf(plugin: LoadedPlugin, stored: string | null, log?: Logger): unknown {
  const known = parsedSettings.get(plugin);
  if (known?.stored === stored) return known.settings;
  const settings = Object.freeze(parseSettings(plugin, stored, log));
  parsedSettings.set(plugin, { stored, settings });
  return settings;
}

/** The stored settings through the plugin's schema; what no longer fits it (an upgraded plugin) gives way to the defaults. */
function parseSettings(plugin: LoadedPlugin, stored: string | null, log?: Logger): unknown {
  const schema = plugin.definition.settings;
  if (!schema) return {};
  const parsed = schema.safeParse(stored === null ? {} : JSON.parse(stored));
  if (parsed.success) return parsed.data;
  log?.warn({ plugin: plugin.definition.id, issues: parsed.error.issues }, 'stored plugin settings no longer fit its schema; using the defaults');
  return schema.parse({});
}

class HookTimeoutError extends Error {
  constructor(ms: number) {
    super(`The hook did not finish within ${ms} ms`);
    this.name = 'HookTimeoutError';
  }
}

function withTimeLimit<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HookTimeoutError(ms)), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
