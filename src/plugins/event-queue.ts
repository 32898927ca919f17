import type { Logger } from 'pino';
import type { Db } from '../db/connection.ts';
import { inTransaction, serializeTransactions, type Transaction } from '../db/dialect.ts';
import type { LoadedPlugin } from './host.ts';
import { hasQueuedEvents, markEventsTaken, queuedEventsFor, type QueuedEventRow } from './store.ts';
import type { BackgroundContext, BackgroundService, QueuedEvent, TransactionalHookContext } from './types.ts';

/**
 * The hand-over of the plugins' queued events (decisions/0030). A change writes one narrow row in its
 * transaction; here each consuming plugin takes its events, oldest first, a batch per transaction
 * that also takes them off the queue. Batches are what make it cheap: a hundred audit records or
 * deliveries share their index pages and one commit, where one each per change cost the change a
 * third of its time.
 */

const batchSize = 500;
// Every process hands over under one lock (PostgreSQL; SQLite's writers are serialized already), so
// no two take the same events, and one plugin's events are taken in order.
const eventQueueLockKey = 7_346_121_905_115;
/**
 * How long after a change of this process its events are handed over: long enough for a busy
 * server's changes to share a batch. A hand-over's cost is mostly its commit, whatever its size: 20
 * events took 2.5 ms (0.12 ms each), 500 took 22 ms (0.045 ms each). Webhooks wait for their
 * worker's next pass anyway (every second), and readers of the audit log hand over first.
 */
const kickDelayMs = 250;
/** How often events queued by other processes (the CLI, other servers) are looked for. */
const pollIntervalMs = 1000;

/**
 * Hands `plugins` every event waiting for them; resolves with how many (an event counts once per
 * plugin). Together first, one transaction per batch for all of them; if that fails, one plugin at a
 * time, so the one that fails holds up only itself. Logs, never throws: a failing batch stays queued.
 */
export async function handOverTo(ctx: { db: Db; log: Logger }, plugins: readonly LoadedPlugin[], contextFor: ContextFor): Promise<number> {
  const consumers = plugins.filter((plugin) => plugin.definition.consumeEvents);
  if (consumers.length === 0) return 0;
  const handed = { count: 0 };
  try {
    await drain(ctx.db, consumers, contextFor, handed);
  } catch (error) {
    if (consumers.length > 1) {
      for (const plugin of consumers) handed.count += await handOverTo(ctx, [plugin], contextFor);
    } else {
      ctx.log.error({ err: error, plugin: consumers[0]!.definition.id }, 'a plugin failed to take its queued events; they stay queued and are handed over again later');
    }
  }
  return handed.count;
}

type ContextFor = (plugin: LoadedPlugin, tx: Transaction) => Promise<TransactionalHookContext<unknown>>;

/** Batch after batch until none is full; `handed` counts what committed, should a later batch throw. */
async function drain(db: Db, consumers: readonly LoadedPlugin[], contextFor: ContextFor, handed: { count: number }): Promise<void> {
  const ids = consumers.map((plugin) => plugin.definition.id);
  while (await hasQueuedEvents(db, ids)) {
    const taken = await inTransaction(db, async (tx) => {
      await serializeTransactions(tx, eventQueueLockKey);
      const rows = await queuedEventsFor(tx, ids, batchSize);
      let count = 0;
      for (const plugin of consumers) {
        const events = rows.filter((row) => row.consumers.includes(`,${plugin.definition.id},`)).map(queuedEvent);
        if (events.length > 0) await plugin.definition.consumeEvents!(events, await contextFor(plugin, tx));
        count += events.length;
      }
      await markEventsTaken(tx, ids, rows);
      return { rows: rows.length, count };
    });
    handed.count += taken.count;
    if (taken.rows < batchSize) return;
  }
}

/** The event as plugins see it; parsed only when read (webhooks send the JSON text as it is). */
function queuedEvent(row: QueuedEventRow): QueuedEvent {
  let parsed: unknown;
  const split = row.resource.indexOf(':');
  return {
    name: row.name,
    at: row.at,
    resource: { type: row.resource.slice(0, split), id: row.resource.slice(split + 1) },
    json: row.event,
    get event() {
      return (parsed ??= JSON.parse(row.event));
    },
  } as QueuedEvent;
}

export interface EventDispatcher extends BackgroundService {
  /** This process committed an event: hand it over shortly, with whatever else comes meanwhile. */
  kick(): void;
}

/** Hands over queued events in this process: shortly after each of its own changes, and every second for other processes'. */
export function startEventDispatcher(ctx: Pick<BackgroundContext, 'log'>, handOver: () => Promise<number>): EventDispatcher {
  let running: Promise<void> | undefined;
  let pending: NodeJS.Timeout | undefined;
  let again = false;
  let stopped = false;

  const run = () => {
    pending = undefined;
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = handOver()
      .then(() => undefined, (error: unknown) => ctx.log.error({ err: error }, 'handing over queued plugin events failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          schedule();
        }
      });
  };
  const schedule = () => {
    if (!pending && !stopped) pending = setTimeout(run, kickDelayMs);
  };
  const poll = setInterval(run, pollIntervalMs);
  poll.unref();
  run();
  return {
    kick() {
      if (running) again = true;
      else schedule();
    },
    async stop() {
      stopped = true;
      clearInterval(poll);
      clearTimeout(pending);
      await running;
    },
  };
}
