import { z } from 'zod/mini';
import { eventTypes } from '../../events';

const day = z.catch(z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))), undefined);

/**
 * The audit log's filters, in its address so a view can be bookmarked or shared: the person (a user
 * id), the action, and the first and last days (as date fields give them). A value that does not
 * parse is dropped rather than refused.
 */
export const AuditSearch = z.object({
  who: z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(64))), undefined),
  action: z.catch(z.optional(z.enum(eventTypes as [(typeof eventTypes)[number], ...(typeof eventTypes)[number][]])), undefined),
  from: day,
  to: day,
});

export type AuditSearch = z.output<typeof AuditSearch>;
