import { z } from 'zod/mini';

const id = z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(64))), undefined);

/**
 * Where the import wizard is, in its address: an analysis under review, or an import followed, so a
 * page opened again (a tab closed, the browser restarted) comes back to the same step.
 */
export const ImportSearch = z.object({ analysis: id, job: id });

export type ImportSearch = z.output<typeof ImportSearch>;
