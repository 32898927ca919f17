import { TrieRouter } from 'hono/router/trie-router';

/**
 * The methods an app serves at a path, for the 405 answer and its `Allow` header: every method of the
 * routes whose pattern matches the path, in the order they were added, HEAD after GET (Hono answers
 * HEAD with the GET route). Asked only once no route answered a request (the app's notFound), so a
 * request that finds its route pays nothing for it; the patterns are gathered at the first such ask,
 * when every route has been added.
 */
export function allowedMethods(app: { readonly routes: readonly { method: string; path: string }[] }): (path: string) => string[] {
  let router: TrieRouter<string[]> | undefined;
  const build = () => {
    const byPattern = new Map<string, string[]>();
    for (const route of app.routes) {
      // Middleware is added for ALL; HEAD comes with GET.
      if (route.method === 'ALL' || route.method === 'HEAD') continue;
      const methods = byPattern.get(route.path) ?? [];
      const added = route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];
      for (const method of added) if (!methods.includes(method)) methods.push(method);
      byPattern.set(route.path, methods);
    }
    const built = new TrieRouter<string[]>();
    for (const [pattern, methods] of byPattern) built.add('ALL', pattern, methods);
    return built;
  };
  return (path) => {
    router ??= build();
    const allowed = new Set<string>();
    for (const [methods] of router.match('ALL', path)[0]) for (const method of methods) allowed.add(method);
    return [...allowed];
  };
}
