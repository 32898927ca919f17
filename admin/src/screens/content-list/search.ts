import { z } from 'zod/mini';
import type { ListView } from '../../api/queries';

export const listStatuses = ['draft', 'published', 'scheduled'] as const;
/** What a list can show: entries of a status, or the trash (the API's own list, in the order of deletion). */
export const listFilters = [...listStatuses, 'trash'] as const;

/**
 * A list's state in its URL, so a view can be shared: the status shown, the sort, the columns, the search and the filters. A value that does
 * not parse (an old link, a hand-edited one) falls back to the default instead of failing the screen.
 */
export const ListSearch = z.object({
  status: z.catch(z.optional(z.enum(listFilters)), undefined),
  sort: z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(63))), undefined),
  order: z.catch(z.optional(z.enum(['asc', 'desc'])), undefined),
  /** The columns shown besides the title, by id, comma-separated; absent: the collection's default ones. */
  columns: z.catch(z.optional(z.string().check(z.maxLength(4000))), undefined),
  /** Words searched for through the API's /search, within the collection; the table then shows the best matches. */
  q: z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(500))), undefined),
  /** Only entries with this term, as the API's `term` filter takes it: `taxonomy:term-slug`. */
  term: z.catch(z.optional(z.string().check(z.regex(/^[a-z][a-z0-9_-]*:[^:]+$/), z.maxLength(264))), undefined),
  /** Only entries this user created (a user id). */
  author: z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(200))), undefined),
  /** Only entries in this locale (a BCP 47 tag); absent: all locales. */
  locale: z.catch(z.optional(z.string().check(z.minLength(2), z.maxLength(35))), undefined),
});

export type ListSearch = z.output<typeof ListSearch>;

/** Without a sort in the URL, the most recently changed entries come first. */
export const defaultSort = { sort: 'updatedAt', order: 'desc' } as const;

/**
 * What a list asks the API for, from its URL: the same query key in the route's loader and the
 * screen. The trash has one order, the most recently deleted first, so it takes no sort; a search
 * has its own (best match first) and the API's /search takes no filter but the collection.
 */
export function listView(search: ListSearch): ListView {
  if (search.status === 'trash') return { status: 'trash' };
  if (search.q !== undefined) return { search: search.q };
  const filters = { ...(search.term ? { term: search.term } : {}), ...(search.author ? { author: search.author } : {}), ...(search.locale ? { locale: search.locale } : {}) };
  return { status: search.status, orderBy: search.sort ?? defaultSort.sort, order: search.order ?? defaultSort.order, ...filters };
}
