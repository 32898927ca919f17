import { z } from 'zod/mini';

/**
 * The two revisions compared, by id; absent, the newest and the one before it. A value that does
 * not parse falls back to the default, and one that names no revision of the entry too (Revisions.tsx).
 */
export const RevisionsSearch = z.object({
  from: z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(64))), undefined),
  to: z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(64))), undefined),
});

export type RevisionsSearch = z.output<typeof RevisionsSearch>;
