import type { z } from 'zod';
import { decodeCursor, encodeCursor } from '../../core/cursor.ts';
import { newId } from '../../core/ids.ts';
import { periodic } from '../../core/periodic.ts';
import { access, defineOperation } from '../../core/operation.ts';
import { toPage, type Page } from '../../core/pagination.ts';
import { defineRoute } from '../../http/route.ts';
import { eventTypeOf } from '../event-types.ts';
import type { AfterHookName, QueuedHookEvents } from '../types.ts';
import { definePlugin, type BackgroundContext, type QueuedEvent } from '../types.ts';
import { AuditListResponse, AuditSettings, ListAuditQuery, type AuditEvent } from './schemas.ts';
import { insertAuditEvents, listAuditEvents, pruneAuditEvents, type AuditRow } from './store.ts';

export const auditLogId = 'audit-log';

/** What a record keeps of the event besides who and which resource: enough to tell what happened. */
function detailsOf(event: QueuedHookEvents[AfterHookName]): Record<string, unknown> {
  if ('entry' in event) {
    const { collection, slug, locale, status } = event.entry;
    return { collection, slug, locale, status, ...('permanent' in event ? { permanent: event.permanent } : {}), ...('created' in event ? { created: event.created } : {}) };
  }
  if ('item' in event) return { filename: event.item.filename, mimeType: event.item.mimeType, size: event.item.size };
  if ('comment' in event) {
    const { collection, entryId, status } = event.comment;
    return { collection, entryId, status, ...('previousStatus' in event ? { previousStatus: event.previousStatus } : {}) };
  }
  return { method: event.method };
}

function auditRowOf({ name, at, resource, event }: QueuedEvent): AuditRow {
  const { actor } = event;
  return {
    id: newId(),
    at,
    action: eventTypeOf[name],
    resource_type: resource.type,
    resource_id: resource.id,
    actor_kind: actor.kind,
    actor_id: actor.kind === 'user' ? actor.userId : null,
    actor_email: actor.kind === 'user' ? actor.email : null,
    credential_type: actor.kind === 'user' ? actor.credential.type : null,
    credential_id: actor.kind === 'user' ? actor.credential.id : null,
    details: JSON.stringify(detailsOf(event)),
  };
}

function toAuditEvent(row: AuditRow): AuditEvent {
  return {
    id: row.id,
    at: row.at,
    action: row.action,
    resource: { type: row.resource_type, id: row.resource_id },
    actor: { kind: row.actor_kind, id: row.actor_id, email: row.actor_email },
    credential: row.credential_type === null ? null : { type: row.credential_type, id: row.credential_id ?? '' },
    details: JSON.parse(row.details) as Record<string, unknown>,
  };
}

export const listAuditLog = defineOperation({
  name: 'auditLog.list',
  access: access.scope('admin'),
  async run(ctx, input: z.output<typeof ListAuditQuery>): Promise<Page<AuditEvent>> {
    // Every change committed before the request is in the answer, its record taken from the queue first.
    await ctx.plugins?.handOverQueuedEvents(ctx);
    const after = input.cursor === undefined ? undefined : (decodeCursor(input.cursor, 2).map(String) as [string, string]);
    const rows = await listAuditEvents(ctx.db, input, { after, limit: input.limit + 1 });
    return toPage(rows, input.limit, (row) => encodeCursor([row.at, row.id]), toAuditEvent);
  },
});

/** Deletes the records older than the retention the plugin's settings say; returns how many went. */
export async function pruneAuditLog(ctx: Pick<BackgroundContext, 'db' | 'clock' | 'log' | 'plugins'>): Promise<number> {
  const plugin = ctx.plugins?.find(auditLogId);
  if (!plugin) return 0;
  // Records still queued are made first, so one already past the retention is pruned now.
  await ctx.plugins!.handOverQueuedEvents(ctx);
  const { settings } = await ctx.plugins!.stateOf(ctx.db, plugin, ctx.log);
  const cutoff = new Date(ctx.clock.now().getTime() - (settings as AuditSettings).retentionDays * 86_400_000).toISOString();
  return pruneAuditEvents(ctx.db, cutoff);
}

const pruneEveryMs = 3_600_000;

/**
 * The audit log: who did what to which resource, when, and through which credential, readable by
 * admins. Each change's event is queued in its transaction (REST, MCP, the CLI and the importer
 * alike; decisions/0030) and recorded here in batches.
 */
export const auditLogPlugin = definePlugin<AuditSettings>({
  id: auditLogId,
  name: 'Audit log',
  version: '1.0.0',
  description: 'Records who changed which content, media or session, when and with which credential; kept for a configurable number of days',
  settings: AuditSettings,
  async consumeEvents(events, ctx) {
    await insertAuditEvents(ctx.db, events.map(auditRowOf));
  },
  routes: [
    defineRoute({ method: 'get', path: '/events', tag: 'Audit log (plugin)', summary: 'Audit records, newest first, with filters', operation: listAuditLog, query: ListAuditQuery, response: AuditListResponse }),
  ],
  background: (ctx) => {
    const prunes = periodic(() => pruneAuditLog(ctx), { intervalMs: pruneEveryMs, log: ctx.log, failure: 'pruning the audit log failed' });
    prunes.start();
    return prunes;
  },
});
