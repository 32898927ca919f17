import type { Logger } from 'pino';
import { batched } from '../core/batched.ts';
import { logFailure } from '../core/errors.ts';
import type { Db } from '../db/connection.ts';
import { inTransaction } from '../db/dialect.ts';
import * as store from './store.ts';

/**
 * Hits are counted after the lookup has answered, never on its way (docs/decisions/0057): the lookup
 * is on a site's 404 path. Lookups that come in on the same turn of the event loop, and any while a
 * count is being written, are added up and written in one transaction, one statement per redirect.
 * A count lost with the process (it stops between a lookup and the write) is a hit not counted.
 */

interface Hit {
  id: string;
  at: string;
}

/** One writer of counts per database. */
const writers = new WeakMap<object, (hit: Hit) => Promise<void>>();

function writerFor(db: Db): (hit: Hit) => Promise<void> {
  let write = writers.get(db.identity);
  if (!write) {
    write = batched<Hit, void>(async (hits) => {
      const counts = new Map<string, { id: string; count: number; at: string }>();
      for (const hit of hits) {
        const count = counts.get(hit.id) ?? { id: hit.id, count: 0, at: hit.at };
        count.count++;
        if (hit.at > count.at) count.at = hit.at;
        counts.set(hit.id, count);
      }
      await inTransaction(db, (tx) => store.addHits(tx, [...counts.values()]));
      return hits.map(() => undefined);
    });
    writers.set(db.identity, write);
  }
  return write;
}

/** Counts a hit of the redirect soon; a failure is logged, the lookup has answered already. */
export function countHit(db: Db, log: Logger, hit: Hit): void {
  writerFor(db)(hit).catch((error: unknown) => logFailure(log, error, 'redirects: a hit could not be counted'));
}
