import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tinyPng } from './media.ts';

/**
 * WordPress.com on a loopback server, answering in the documented shapes of its public REST API
 * (v1.1: `/sites/$site`, `/posts/` paged by `page_handle`, `/categories`, `/tags`, `/media` and
 * `/users` paged by `page`, `/post-types`) and its OAuth endpoints (`/oauth2/authorize`, which
 * here approves at once and sends the browser back, and `/oauth2/token`). One site lives at the
 * server's own origin, its media under `/files/`; the same server named `localhost` is a private
 * site, whose API answers a request without a token 403. Faults can be queued per path: a 429 with
 * `Retry-After`, a 5xx, an answer that never comes in time.
 */

export const clientId = '4711';
export const clientSecret = 'fixture-client-secret';
/** A token for the whole site, private posts included (the owner approved). */
export const fullToken = 'token-full-access';
/** A token whose account may not read private posts (no approval). */
export const limitedToken = 'token-no-private';
/** A token WordPress.com no longer accepts (401 `authorization_required`). */
export const expiredToken = 'token-expired';

type Fault = { kind: 'status'; status: number; retryAfter?: string } | { kind: 'hang'; ms: number };

interface Post {
  ID: number;
  type: string;
  status: string;
  title: string;
  slug: string;
  content: string;
  date: string;
  author: string;
  parent?: number;
  menu_order?: number;
  sticky?: boolean;
  /** What the API answers under `context: 'edit'`; empty for an open post. */
  password?: string;
  categories?: string[];
  tags?: string[];
  thumbnail?: number;
  metadata?: { key: string; value: unknown }[];
}

export interface WpcomFixture {
  origin: string;
  /** Every API request: path with query, and when it came. */
  requests: { path: string; at: number; authorization: string | undefined }[];
  /** The next request whose path (without query) ends with `pathEnd` gets this fault instead of its answer. */
  fault(pathEnd: string, fault: Fault): void;
  /** The uploads' URL base. */
  files: string;
  /** The number of plain published posts besides the named ones (over 100: more than one page). */
  bulkPosts: number;
  close(): Promise<void>;
}

const users = {
  alice: { ID: 11, login: 'alice', email: 'alice@example.com', name: 'Alice Author', nice_name: 'alice' },
  bob: { ID: 12, login: 'bob', email: 'bob@example.com', name: 'Bob Writer', nice_name: 'bob' },
};

const categories = [
  { ID: 3, name: 'Updates', slug: 'updates', description: 'All updates', parent: 0 },
  { ID: 4, name: 'News', slug: 'news', description: '', parent: 3 },
];
const tags = [{ ID: 7, name: 'Hello', slug: 'hello', description: '' }];

export async function startWpcomFixture(bulkPosts = 105): Promise<WpcomFixture> {
  const images = { sunset: await tinyPng('#e64', 30, 20), harbour: await tinyPng('#46e', 40, 30) };
  const requests: WpcomFixture['requests'] = [];
  const faults: { pathEnd: string; fault: Fault }[] = [];
  const codes = new Map<string, { redirectUri: string; blog: string }>();
  let origin = '';
  const files = () => `${origin}/files/2024/05`;

  const posts = (): Post[] => {
    const named: Post[] = [
      {
        ID: 1,
        type: 'post',
        status: 'publish',
        title: 'Sunset over the bay',
        slug: 'sunset',
        date: '2024-05-01T10:00:00+02:00',
        author: 'alice',
        categories: ['news'],
        tags: ['hello'],
        thumbnail: 501,
        metadata: [
          { key: 'subtitle', value: 'A first evening' },
          { key: '_edit_last', value: '1' },
          // WordPress keeps every slug a post had, one row each: a key that repeats.
          { key: '_wp_old_slug', value: 'sunset-draft' },
          { key: '_wp_old_slug', value: 'evening' },
        ],
        content: `<!-- wp:paragraph --><p>What a <a href="${files()}/harbour.png">harbour</a>.</p><!-- /wp:paragraph -->
<!-- wp:image {"id":501,"sizeSlug":"medium"} --><figure class="wp-block-image size-medium"><img src="${files()}/sunset-300x200.png" alt="Sunset" class="wp-image-501"/></figure><!-- /wp:image -->`,
      },
      { ID: 2, type: 'post', status: 'draft', title: 'Half written', slug: 'half-written', date: '2024-05-02T09:00:00+00:00', author: 'bob', content: '<p>Draft <img src="' + files() + '/harbour-1024x768.png?w=640"></p>' },
      { ID: 3, type: 'post', status: 'pending', title: 'Waiting for review', slug: 'waiting', date: '2024-05-03T09:00:00+00:00', author: 'bob', content: '<p>Pending</p>' },
      { ID: 4, type: 'post', status: 'future', title: 'Next week', slug: 'next-week', date: '2099-01-01T09:00:00+00:00', author: 'alice', content: '<p>Future</p>' },
      { ID: 5, type: 'post', status: 'private', title: 'Members only', slug: 'members-only', date: '2024-05-04T09:00:00+00:00', author: 'alice', content: '<p>Private</p>' },
      { ID: 20, type: 'page', status: 'publish', title: 'About', slug: 'about', date: '2024-04-01T09:00:00+00:00', author: 'alice', menu_order: 1, content: '<p>About us</p>' },
      { ID: 21, type: 'page', status: 'publish', title: 'Team', slug: 'team', date: '2024-04-02T09:00:00+00:00', author: 'alice', parent: 20, menu_order: 2, content: '<p>The team</p>' },
      { ID: 30, type: 'book', status: 'publish', title: 'A novel', slug: 'a-novel', date: '2024-03-01T09:00:00+00:00', author: 'bob', metadata: [{ key: 'isbn', value: '9780000000001' }], content: '<p>Chapter one</p>' },
    ];
    for (let index = 0; index < bulkPosts; index++) {
      const id = 1000 + index;
      // The first note is password-protected: read only by who knows it.
      named.push({ ID: id, type: 'post', status: 'publish', title: `Note ${index}`, slug: `note-${index}`, date: new Date(Date.UTC(2023, 0, 1) + index * 3_600_000).toISOString(), author: 'alice', content: `<p>Note ${index}</p>`, ...(index === 0 ? { password: 'letmein' } : {}) });
    }
    return named;
  };
  const media = () => [
    { ID: 501, URL: `${files()}/sunset.png`, post_ID: 1, mime_type: 'image/png', title: 'Sunset', caption: 'Evening light', alt: 'A red sunset' },
    { ID: 502, URL: `${files()}/harbour.png`, post_ID: 0, mime_type: 'image/png', title: 'Harbour', caption: '', alt: '' },
  ];

  // Post 1's conversation: a visitor's comment, Alice's reply while signed in, one held, one spam.
  const comments = () => [
    { ID: 901, post: 1, status: 'approved', parent: 0, author: { name: 'Visiting Val', email: 'val@visitors.example', URL: 'https://val.example' }, date: '2024-05-02T08:00:00+02:00', raw_content: 'Lovely <em>light</em>.\nWhere was this?' },
    { ID: 902, post: 1, status: 'approved', parent: 901, author: { login: 'alice', name: 'Alice Author', email: 'alice@example.com', URL: '' }, date: '2024-05-02T09:00:00+00:00', raw_content: 'At the harbour.' },
    { ID: 903, post: 1, status: 'unapproved', parent: 0, author: { name: 'Newcomer', email: 'new@visitors.example', URL: '' }, date: '2024-05-03T09:00:00+00:00', raw_content: 'Held for review' },
    { ID: 904, post: 1, status: 'spam', parent: 0, author: { name: 'Pills', email: 'spam@visitors.example', URL: 'https://spam.example' }, date: '2024-05-03T10:00:00+00:00', raw_content: 'Buy now' },
  ];
  const commentShape = (comment: ReturnType<typeof comments>[number]) => ({
    ID: comment.ID,
    post: { ID: comment.post, type: 'post' },
    author: comment.author,
    date: comment.date,
    raw_content: comment.raw_content,
    content: `<p>${comment.raw_content}</p>`,
    status: comment.status,
    parent: comment.parent ? { ID: comment.parent, type: 'comment' } : false,
    type: 'comment',
  });

  const postShape = (post: Post) => ({
    ID: post.ID,
    site_ID: 4242,
    author: users[post.author as keyof typeof users],
    date: post.date,
    modified: post.date,
    title: post.title,
    URL: `${origin}/${post.slug}/`,
    content: post.content,
    excerpt: '',
    slug: post.slug,
    status: post.status,
    sticky: post.sticky ?? false,
    password: post.password ?? '',
    parent: post.parent ? { ID: post.parent, type: post.type, link: `${origin}/rest/v1.1/sites/4242/posts/${post.parent}`, title: '' } : false,
    type: post.type,
    menu_order: post.menu_order ?? 0,
    discussion: { comments_open: true, comment_count: comments().filter((comment) => comment.post === post.ID && comment.status === 'approved').length },
    featured_image: post.thumbnail ? `${files()}/sunset.png` : '',
    post_thumbnail: post.thumbnail ? { ID: post.thumbnail, URL: `${files()}/sunset.png`, mime_type: 'image/png', width: 30, height: 20 } : null,
    format: 'standard',
    terms: {
      category: Object.fromEntries((post.categories ?? []).map((slug) => categories.find((term) => term.slug === slug)!).map((term) => [term.name, term])),
      post_tag: Object.fromEntries((post.tags ?? []).map((slug) => tags.find((term) => term.slug === slug)!).map((term) => [term.name, term])),
    },
    metadata: post.metadata ? post.metadata.map((entry, index) => ({ id: String(index + 1), ...entry })) : false,
  });

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      if (!response.destroyed) response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    };
    if (url.pathname.startsWith('/files/')) {
      const name = url.pathname.split('/').pop()!.replace(/\.png$/, '') as keyof typeof images;
      if (images[name]) return response.writeHead(200, { 'content-type': 'image/png' }).end(images[name]);
      return response.writeHead(404, { 'content-type': 'text/html' }).end('<html>Not found</html>');
    }
    if (url.pathname === '/oauth2/authorize') {
      // The admin approves at once: back to the application with a code.
      const code = `code-${codes.size + 1}`;
      codes.set(code, { redirectUri: url.searchParams.get('redirect_uri') ?? '', blog: url.searchParams.get('blog') ?? '' });
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      return response.writeHead(302, { location: back.href }).end();
    }
    if (url.pathname === '/oauth2/token' && request.method === 'POST') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const form = new URLSearchParams(body);
        const issued = codes.get(form.get('code') ?? '');
        if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) return json(400, { error: 'invalid_client', error_description: 'Unknown client_id.' });
        if (!issued || issued.redirectUri !== form.get('redirect_uri') || form.get('grant_type') !== 'authorization_code') return json(400, { error: 'invalid_grant', error_description: 'Invalid authorization code.' });
        codes.delete(form.get('code')!);
        json(200, { access_token: fullToken, token_type: 'bearer', blog_id: '4242', blog_url: origin, scope: '' });
      });
      return;
    }
    if (!url.pathname.startsWith('/rest/v1.1/')) return response.writeHead(404, { 'content-type': 'text/html' }).end('<html>Not WordPress here</html>');
    const authorization = request.headers.authorization;
    requests.push({ path: `${url.pathname}${url.search}`, at: Date.now(), authorization });
    const faultIndex = faults.findIndex((entry) => url.pathname.endsWith(entry.pathEnd));
    if (faultIndex >= 0) {
      const { fault } = faults.splice(faultIndex, 1)[0]!;
      if (fault.kind === 'hang') {
        setTimeout(() => json(200, { error: 'too late' }), fault.ms).unref();
        return;
      }
      return json(fault.status, { error: 'rate_limit', message: 'Slow down' }, fault.retryAfter ? { 'retry-after': fault.retryAfter } : {});
    }
    const token = authorization?.replace(/^Bearer /, '');
    if (token === expiredToken) return json(401, { error: 'authorization_required', message: 'An active access token must be used to query information about the current user.' });
    if (token !== undefined && token !== fullToken && token !== limitedToken) return json(403, { error: 'invalid_token', message: 'The OAuth2 token is invalid.' });
    const parts = url.pathname.slice('/rest/v1.1/'.length).split('/').filter(Boolean);
    if (parts[0] !== 'sites' || !parts[1]) return json(404, { error: 'unknown_endpoint', message: 'Unknown endpoint' });
    const site = decodeURIComponent(parts[1]);
    // The same server as `localhost`: a private site, whose API answers strangers 403.
    if (site.startsWith('localhost:') && token === undefined) return json(403, { error: 'unauthorized', message: 'API calls to this blog have been disabled.' });
    if (site !== new URL(origin).host && site !== '4242') return json(404, { error: 'unknown_blog', message: 'Unknown blog' });
    const number = Math.min(Number(url.searchParams.get('number') ?? 20), 100);
    const page = Number(url.searchParams.get('page') ?? 1);
    const paged = (key: string, items: unknown[]) => json(200, { found: items.length, [key]: items.slice((page - 1) * number, page * number) });
    switch (parts[2]) {
      case undefined:
        return json(200, { ID: 4242, name: 'Hosted fixture', description: 'A WordPress.com site on loopback', URL: origin, jetpack: false, is_private: false, lang: 'en', post_count: bulkPosts + 3 });
      case 'post-types':
        return json(200, {
          found: 4,
          post_types: [
            { name: 'post', label: 'Posts', api_queryable: true },
            { name: 'page', label: 'Pages', api_queryable: true },
            { name: 'attachment', label: 'Media', api_queryable: true },
            { name: 'book', label: 'Books', api_queryable: true },
          ],
        });
      case 'categories':
        return paged('categories', categories);
      case 'tags':
        return paged('tags', tags);
      case 'users':
        if (token !== fullToken) return json(403, { error: 'unauthorized', message: 'User cannot view users for specified site' });
        return paged('users', Object.values(users));
      case 'media':
        return paged('media', media());
      case 'comments': {
        // Moderating needs the full token; a status other than approved is refused to anyone else.
        const status = url.searchParams.get('status') ?? 'approved';
        if (status !== 'approved' && token !== fullToken) return json(403, { error: 'unauthorized', message: 'User cannot read unapproved comments' });
        const matching = comments().filter((comment) => comment.status === status);
        return paged('comments', matching.map((comment) => (url.searchParams.get('fields') === 'ID,post' ? { ID: comment.ID, post: { ID: comment.post } } : commentShape(comment))));
      }
      case 'posts': {
        if (parts[4] === 'replies') {
          const status = url.searchParams.get('status') ?? 'approved';
          if (status !== 'approved' && token !== fullToken) return json(403, { error: 'unauthorized', message: 'User cannot read unapproved comments' });
          return paged('comments', comments().filter((comment) => comment.post === Number(parts[3]) && comment.status === status).map(commentShape));
        }
        const type = url.searchParams.get('type') ?? 'post';
        const status = url.searchParams.get('status') ?? 'publish';
        if (status !== 'publish' && token === undefined) return json(403, { error: 'unauthorized', message: 'User cannot view posts with that status' });
        if (status === 'private' && token !== fullToken) return json(403, { error: 'unauthorized', message: 'User cannot view private posts' });
        const matching = posts().filter((post) => post.type === type && post.status === status);
        const offset = Number(/^offset=(\d+)$/.exec(url.searchParams.get('page_handle') ?? '')?.[1] ?? (page - 1) * number);
        const slice = matching.slice(offset, offset + number);
        const next = offset + number < matching.length ? `offset=${offset + number}` : undefined;
        const fields = url.searchParams.get('fields');
        const shaped = slice.map((post) => (fields === 'ID' ? { ID: post.ID } : postShape(post)));
        return json(200, { found: matching.length, posts: shaped, meta: { links: { counts: `${origin}/rest/v1.1/sites/4242/post-counts/${type}` }, ...(next ? { next_page: next } : {}) } });
      }
      default:
        return json(404, { error: 'unknown_endpoint', message: 'Unknown endpoint' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    files: files(),
    bulkPosts,
    fault: (pathEnd, fault) => faults.push({ pathEnd, fault }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
