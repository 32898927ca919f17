import { startEarly } from './api/early';

/**
 * The page's first script, before the main bundle (index.html): starts the reads the screen at this
 * address needs first, so that they travel while the browser compiles and runs the panel's code
 * instead of after it (decisions/0053). Each address is the one the screen's own request will have,
 * byte for byte, or it is not taken: the shell's `me` and collections, a list's first page in its
 * default view (a filter or a sort in the URL is left to the screen), an entry.
 */
const api = '/_cms/api';
/** `/content/:collection` and `/content/:collection/:id` (router.tsx). */
const contentPath = /^\/_cms\/admin\/content\/([^/]+)(?:\/([^/]+))?\/?$/;

function addresses(path: string, search: string): string[] {
  const shell = [`${api}/auth/me`, `${api}/content`];
  const [, collection, id] = contentPath.exec(path) ?? [];
  if (collection === undefined) return shell;
  // queries.ts's entryListQuery in listView's default (search.ts): the most recently changed first, 100 a page.
  if (id === undefined) return search === '' ? [...shell, `${api}/content/${collection}?orderBy=updatedAt&order=desc&limit=100`] : shell;
  // queries.ts's entryQuery; at `new` (entries.ts) a new entry's editor, with nothing to read.
  return id === 'new' ? shell : [...shell, `${api}/content/${collection}/${id}`];
}

startEarly(addresses(window.location.pathname, window.location.search));
