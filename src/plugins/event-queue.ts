import { setImmediate } from 'node:timers/promises';
import type { Logger } from 'pino';
import { logFailure } from '../core/errors.ts';
import { periodic } from '../core/periodic.ts';
import type { Db } from '../db/connection.ts';
import { inTransaction, serializeTransactions, type Transaction } from '../db/dialect.ts';
import { hasQueuedEvents, markEventsTaken, queuedEventsFor, type QueuedEventRow } from './store.ts';
import type { BackgroundContext, BackgroundService, LoadedPlugin, QueuedEvent, TransactionalHookContext } from './types.ts';

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
 * How often each serving process hands over what is queued, its own changes' events and those of
 * the CLI or other processes alike. A hand-over costs a fixed part (its transaction, its commit) and
 * a part per event: 20 events took 2.5 ms, 500 took 22 ms. Once a second, a busy server's events
 * fill batches of hundreds; handing over 250 ms after each change made batches of 80 and cost creates
 * about 2% more. Nobody waits on this pace: the webhook worker and the audit log's readers hand over
 * first themselves.
 */
const handOverIntervalMs = 1000;

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
      logFailure(ctx.log, error, 'a plugin failed to take its queued events; they stay queued and are handed over again later', { plugin: consumers[0]!.definition.id });
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
      const queued = rows.map((row) => new StoredEvent(row));
      let count = 0;
      for (const plugin of consumers) {
        const mark = `,${plugin.definition.id},`;
        // Each row was queued from one event, so its name and event match as QueuedEvent says.
        const events = queued.filter((event) => event.consumers.includes(mark)) as unknown as QueuedEvent[];
        if (events.length > 0) await plugin.definition.consumeEvents!(events, await contextFor(plugin, tx));
        count += events.length;
      }
      await markEventsTaken(tx, ids, rows);
      return { rows: rows.length, count };
    });
    handed.count += taken.count;
    if (taken.rows < batchSize) return;
    // SQLite's calls return at once, so without this a long queue (an import's 50,000 events) would be
    // handed over in one turn of the event loop: no request answered for seconds, and keep-alive
    // connections closed under the clients that had just sent on them.
    await setImmediate();
  }
}

/**
 * The event as plugins see it (a QueuedEvent), one object for every plugin it goes to; parsed only
 * when read (webhooks send the JSON text as it is).
 */
class StoredEvent {
  readonly name: string;
  readonly at: string;
  readonly resource: { type: string; id: string };
  readonly json: string;
  readonly consumers: string;
  #parsed: unknown;

  constructor(row: QueuedEventRow) {
    const split = row.resource.indexOf(':');
    this.name = row.name;
    this.at = row.at;
    this.resource = { type: row.resource.slice(0, split), id: row.resource.slice(split + 1) };
    this.json = row.event;
    this.consumers = row.consumers;
  }

  get event(): unknown {
    return (this.#parsed ??= JSON.parse(this.json));
  }
}

/** Hands over queued events in this process every second, one hand-over at a time, until stopped. */
export function startEventDispatcher(ctx: Pick<BackgroundContext, 'log'>, handOver: () => Promise<number>): BackgroundService {
  const handOvers = periodic(handOver, { intervalMs: handOverIntervalMs, log: ctx.log, failure: 'handing over queued plugin events failed' });
  handOvers.start();
  return handOvers;
}
