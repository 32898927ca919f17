import { z } from 'zod/mini';

export const listStatuses = ['draft', 'published', 'scheduled'] as const;

/**
 * A list's state in its URL, so a view can be shared: the status shown and the sort. A value that does
 * not parse (an old link, a hand-edited one) falls back to the default instead of failing the screen.
 */
export const ListSearch = z.object({
  status: z.catch(z.optional(z.enum(listStatuses)), undefined),
  sort: z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(63))), undefined),
  order: z.catch(z.optional(z.enum(['asc', 'desc'])), undefined),
});

export type ListSearch = z.output<typeof ListSearch>;

/** Without a sort in the URL, the most recently changed entries come first. */
export const defaultSort = { sort: 'updatedAt', order: 'desc' } as const;

/** What a list asks the API for, from its URL: the same query key in the route's loader and the screen. */
export function listParams(search: ListSearch) {
  return { status: search.status, orderBy: search.sort ?? defaultSort.sort, order: search.order ?? defaultSort.order };
}
