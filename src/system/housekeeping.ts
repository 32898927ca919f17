import type { Logger } from 'pino';
import { removeExpiredExports } from '../archive/export-operations.ts';
import { pruneRateLimits } from '../auth/rate-limit.ts';
import type { Clock } from '../core/clock.ts';
import { periodic } from '../core/periodic.ts';
import type { Db } from '../db/connection.ts';
import { refreshPlannerStatistics } from '../db/dialect.ts';
import { removeExpiredAnalyses } from '../import/analysis.ts';
import * as importStore from '../import/store.ts';
import type { MediaStorage } from '../media/storage/types.ts';
import * as oauthStore from '../oauth/store.ts';
import { deleteExpiredPreviewGrants } from '../preview/store.ts';

/**
 * Clearing what has expired (rate-limit counters, spent OAuth codes and tokens, WordPress.com
 * connections never finished, import analyses and their uploaded files, preview links, site exports past their keeping), off the request path: done
 * now and then by requests, it made a request's work depend on chance. And keeping the query
 * planner's statistics in step with the tables' growth (decisions/0031). Each server process does
 * both at start and then on a timer; both are idempotent, so several processes doing them is harmless.
 */

interface HousekeepingContext {
  db: Db;
  clock: Clock;
  storage: MediaStorage;
}

/** One sweep; exported for tests and for `startHousekeeping`. */
export async function sweepExpired(ctx: HousekeepingContext): Promise<void> {
  const { db, clock } = ctx;
  const now = clock.now();
  await pruneRateLimits(db, now);
  await oauthStore.deleteExpired(db, new Date(now.getTime() - 86_400_000).toISOString());
  await importStore.deleteExpiredConnections(db, now.toISOString());
  await removeExpiredAnalyses(ctx);
  await deleteExpiredPreviewGrants(db, now.toISOString());
  await removeExpiredExports(ctx);
}

const sweepIntervalMs = 10 * 60_000;

/** Housekeeping now and every ten minutes until stopped; a failed round is logged and tried again at the next. */
export function startHousekeeping(ctx: HousekeepingContext & { log: Logger }): { stop(): Promise<void> } {
  const rounds = periodic(
    async () => {
      await sweepExpired(ctx);
      await refreshPlannerStatistics(ctx.db);
    },
    { intervalMs: sweepIntervalMs, log: ctx.log, failure: 'housekeeping failed' },
  );
  rounds.start();
  return rounds;
}
