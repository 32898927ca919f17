import type { Selectable } from 'kysely';
import { insertRows } from '../../db/compiled.ts';
import type { Db } from '../../db/connection.ts';
import type { AuditEventsTable } from '../../db/types.ts';
import { limitLiteral } from '../../db/dialect.ts';

export type AuditRow = Selectable<AuditEventsTable>;

export async function insertAuditEvents(db: Db, rows: readonly AuditRow[]): Promise<void> {
  await insertRows(db, 'audit_events', rows);
}

export interface AuditFilters {
  action?: string;
  resourceType?: string;
  resourceId?: string;
  actorId?: string;
  credentialType?: string;
  since?: string;
  until?: string;
}

/** Newest first; `after` is the (at, id) of the previous page's last record. */
export function listAuditEvents(db: Db, filters: AuditFilters, page: { after?: [string, string]; limit: number }): Promise<AuditRow[]> {
  let query = db.kysely.selectFrom('audit_events').selectAll();
  if (filters.action !== undefined) query = query.where('action', '=', filters.action);
  if (filters.resourceType !== undefined) query = query.where('resource_type', '=', filters.resourceType);
  if (filters.resourceId !== undefined) query = query.where('resource_id', '=', filters.resourceId);
  if (filters.actorId !== undefined) query = query.where('actor_id', '=', filters.actorId);
  if (filters.credentialType !== undefined) query = query.where('credential_type', '=', filters.credentialType);
  if (filters.since !== undefined) query = query.where('at', '>=', filters.since);
  if (filters.until !== undefined) query = query.where('at', '<', filters.until);
  if (page.after) {
    const [at, id] = page.after;
    query = query.where((where) => where.or([where('at', '<', at), where.and([where('at', '=', at), where('id', '<', id)])]));
  }
  return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limitLiteral(page.limit)).execute();
}

/** Deletes records older than `before`; returns how many. */
export async function pruneAuditEvents(db: Db, before: string): Promise<number> {
  const result = await db.kysely.deleteFrom('audit_events').where('at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
