import { sql } from 'kysely';
import { AppError, databaseUnavailable } from '../core/errors.ts';
import { access, defineOperation } from '../core/operation.ts';

/** For load balancers: healthy only when the database answers. */
export const checkHealth = defineOperation({
  name: 'system.health',
  access: access.public,
  async run(ctx): Promise<{ status: 'ok'; database: 'ok' }> {
    try {
      await sql`select 1`.execute(ctx.db.kysely);
    } catch (error) {
      // An outage is logged once, not at every probe of a load balancer; anything else is a bug.
      const unavailable = databaseUnavailable(error, ctx.log);
      if (unavailable) throw unavailable;
      ctx.log.error({ err: error }, 'health check: database unreachable');
      throw new AppError('SERVICE_UNAVAILABLE', 'The database is not answering');
    }
    return { status: 'ok', database: 'ok' };
  },
});
