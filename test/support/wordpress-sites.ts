import http from 'node:http';

/**
 * Two self-hosted WordPress sites on a loopback server, one with pretty permalinks (`/wp-json/`), one
 * with plain ones (`?rest_route=/`), and a site that is not WordPress.
 */
export function wordpressSites(): http.Server {
  const totals: Record<string, number> = { posts: 12, pages: 3, media: 40 };
  return http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fixture');
    const json = (body: unknown, headers: Record<string, string> = {}) => response.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    const index = (name: string) => json({ name, description: 'Just another site', home: `http://${request.headers.host}/`, namespaces: ['oembed/1.0', 'wp/v2'] });
    const collection = (path: string) => json([], { 'x-wp-total': String(totals[path.split('/').pop()!] ?? 0), 'x-wp-totalpages': '1' });
    if (url.pathname === '/pretty/wp-json/') return index('Pretty permalinks');
    if (url.pathname.startsWith('/pretty/wp-json/wp/v2/')) return collection(url.pathname);
    const route = url.searchParams.get('rest_route');
    if (url.pathname === '/plain/' && route === '/') return index('Plain permalinks');
    if (url.pathname === '/plain/' && route?.startsWith('/wp/v2/')) return collection(route);
    response.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Nothing here</body></html>');
  });
}
