import { z } from 'zod';
import { pageQuery } from '../../core/pagination.ts';
import { eventTypes } from '../event-types.ts';

export const AuditSettings = z.strictObject({
  retentionDays: z.number().int().min(1).max(3650).default(90).describe('Records older than this many days are deleted'),
});
export type AuditSettings = z.output<typeof AuditSettings>;

// Stored instants are UTC with milliseconds: a filter is brought to that form to compare as text.
const isoInstant = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value).toISOString())
  .describe('ISO 8601 instant');

export const ListAuditQuery = z.object({
  action: z.enum(eventTypes).optional(),
  resourceType: z.enum(['entry', 'media', 'user']).optional(),
  resourceId: z.string().min(1).max(64).optional(),
  actorId: z.string().min(1).max(64).optional().describe('The acting user'),
  credentialType: z.string().min(1).max(32).optional().describe('token, session, or another credential kind'),
  since: isoInstant.optional().describe('From this instant on (inclusive)'),
  until: isoInstant.optional().describe('Before this instant'),
  ...pageQuery(50),
});

export const AuditEventSchema = z
  .object({
    id: z.string(),
    at: z.string(),
    action: z.string(),
    resource: z.object({ type: z.string(), id: z.string() }),
    actor: z.object({ kind: z.string(), id: z.string().nullable(), email: z.string().nullable() }),
    credential: z.object({ type: z.string(), id: z.string() }).nullable(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AuditEvent' });
export type AuditEvent = z.infer<typeof AuditEventSchema>;

export const AuditListResponse = z.object({ items: z.array(AuditEventSchema), nextCursor: z.string().optional() });
