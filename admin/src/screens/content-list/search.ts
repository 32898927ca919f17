import { z } from 'zod/mini';
import type { ListView } from '../../api/queries';

export const listStatuses = ['draft', 'published', 'scheduled'] as const;
/** What a list can show: entries of a status, or the trash (the API's own list, in the order of deletion). */
export const listFilters = [...listStatuses, 'trash'] as const;

/**
 * A list's state in its URL, so a view can be shared: the status shown, the sort and the columns. A value that does
 * not parse (an old link, a hand-edited one) falls back to the default instead of failing the screen.
 */
export const ListSearch = z.object({
  status: z.catch(z.optional(z.enum(listFilters)), undefined),
  sort: z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(63))), undefined),
  order: z.catch(z.optional(z.enum(['asc', 'desc'])), undefined),
  /** The columns shown besides the title, by id, comma-separated; absent: the collection's default ones. */
  columns: z.catch(z.optional(z.string().check(z.maxLength(4000))), undefined),
});

export type ListSearch = z.output<typeof ListSearch>;

/** Without a sort in the URL, the most recently changed entries come first. */
export const defaultSort = { sort: 'updatedAt', order: 'desc' } as const;

/**
 * What a list asks the API for, from its URL: the same query key in the route's loader and the
 * screen. The trash has one order, the most recently deleted first, so it takes no sort.
 */
export function listView(search: ListSearch): ListView {
  if (search.status === 'trash') return { status: 'trash' };
  return { status: search.status, orderBy: search.sort ?? defaultSort.sort, order: search.order ?? defaultSort.order };
}
