/**
 * The first screen's reads, asked for before the panel's code has loaded (decisions/0053): the page's
 * first script (admin/src/early.ts) starts them while the browser is still compiling and running the
 * main bundle, and the API client (client.ts) takes each answer for the first request of the same
 * address instead of asking again. This file has no imports, so that first script stays tiny.
 */
const started = new Map<string, Promise<Response | undefined>>();

/**
 * An answer taken this long after the page started would be older than what the panel calls fresh
 * (main.tsx's `staleTime`): left for a request of its own.
 */
const keptForMs = 10_000;

/** Starts a GET for each address (path and query), with the session cookie, as the client would. */
export function startEarly(addresses: readonly string[]): void {
  for (const address of addresses) {
    // A failed early read is not an error of the panel's: the client's own request goes out instead.
    started.set(address, fetch(address, { credentials: 'include' }).catch(() => undefined));
  }
  setTimeout(() => started.clear(), keptForMs);
}

/** The early answer to this request, once: a GET of an address started early; else undefined. */
export function takeEarly(request: Request): Promise<Response | undefined> | undefined {
  if (request.method !== 'GET') return undefined;
  const url = new URL(request.url);
  const address = url.pathname + url.search;
  const answer = started.get(address);
  started.delete(address);
  return answer;
}
