import { Readable } from 'node:stream';

/**
 * A WordPress export of `posts` generated posts, streamed (never held whole), for the crash test and
 * the import bench. Each post has a title, block content of about `contentBytes`, an excerpt, an author,
 * two categories and a tag; every tenth is a page under the previous page.
 */
export interface GeneratedExport {
  posts: number;
  contentBytes?: number;
  site?: string;
  /** With it, each item's content opens with an image block showing one of this many uploads (a size variant of it). */
  images?: number;
  /** Comments on each post (not pages): every other one a reply to the one before, every twentieth held. */
  comments?: number;
}

/** The URL of the generated site's upload `index`, as WordPress names it. */
export function generatedImageUrl(site: string, index: number): string {
  return `${site}/wp-content/uploads/2020/01/image-${index}.jpg`;
}

const words = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit', 'sed', 'do', 'eiusmod', 'tempor', 'incididunt', 'labore', 'magna', 'aliqua'];

function paragraph(seed: number, length: number): string {
  let text = '';
  for (let index = 0; text.length < length; index++) text += `${words[(seed * 7 + index * 13) % words.length]} `;
  return `<!-- wp:paragraph -->\n<p>${text.trim()} <a href="https://example.com/${seed}">link ${seed}</a></p>\n<!-- /wp:paragraph -->\n\n`;
}

function header(site: string): string {
  return `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wfw="http://wellformedweb.org/CommentAPI/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
<title>Generated site</title>
<link>${site}</link>
<description>Generated for tests</description>
<language>en-US</language>
<wp:wxr_version>1.2</wp:wxr_version>
<wp:base_site_url>${site}</wp:base_site_url>
<wp:base_blog_url>${site}</wp:base_blog_url>
<wp:author><wp:author_id>1</wp:author_id><wp:author_login><![CDATA[writer]]></wp:author_login><wp:author_email><![CDATA[writer@example.com]]></wp:author_email><wp:author_display_name><![CDATA[The Writer]]></wp:author_display_name><wp:author_first_name><![CDATA[]]></wp:author_first_name><wp:author_last_name><![CDATA[]]></wp:author_last_name></wp:author>
<wp:category><wp:term_id>1</wp:term_id><wp:category_nicename><![CDATA[news]]></wp:category_nicename><wp:category_parent><![CDATA[]]></wp:category_parent><wp:cat_name><![CDATA[News]]></wp:cat_name></wp:category>
<wp:category><wp:term_id>2</wp:term_id><wp:category_nicename><![CDATA[local]]></wp:category_nicename><wp:category_parent><![CDATA[news]]></wp:category_parent><wp:cat_name><![CDATA[Local]]></wp:cat_name></wp:category>
<wp:tag><wp:term_id>3</wp:term_id><wp:tag_slug><![CDATA[generated]]></wp:tag_slug><wp:tag_name><![CDATA[Generated]]></wp:tag_name></wp:tag>
`;
}

/** A post's comments, numbered from `post * 1000` so ids stay unique in the export. */
function commentsOf(post: number, count: number): string {
  let comments = '';
  for (let index = 0; index < count; index++) {
    const id = post * 1000 + index;
    const parent = index % 2 === 1 ? id - 1 : 0;
    comments += `<wp:comment><wp:comment_id>${id}</wp:comment_id><wp:comment_author><![CDATA[Reader ${index}]]></wp:comment_author><wp:comment_author_email><![CDATA[reader${index}@example.com]]></wp:comment_author_email><wp:comment_author_url>https://reader${index}.example.com</wp:comment_author_url><wp:comment_author_IP><![CDATA[192.0.2.${index % 250}]]></wp:comment_author_IP><wp:comment_date><![CDATA[2020-01-03 10:00:00]]></wp:comment_date><wp:comment_date_gmt><![CDATA[2020-01-03 10:${String(index % 60).padStart(2, '0')}:00]]></wp:comment_date_gmt><wp:comment_content><![CDATA[Comment ${index} on post ${post}: ${words.join(' ')}.
A <a href="https://example.com/${id}">link</a> and <em>emphasis</em>.]]></wp:comment_content><wp:comment_approved><![CDATA[${index % 20 === 19 ? 0 : 1}]]></wp:comment_approved><wp:comment_type><![CDATA[comment]]></wp:comment_type><wp:comment_parent>${parent}</wp:comment_parent><wp:comment_user_id>0</wp:comment_user_id></wp:comment>\n`;
  }
  return comments;
}

function item(id: number, contentBytes: number, site: string, images: number, comments: number): string {
  const page = id % 10 === 0;
  const parent = page && id > 10 ? id - 10 : 0;
  let content = images > 0 ? `<!-- wp:image {"sizeSlug":"medium"} -->\n<figure class="wp-block-image size-medium"><img src="${generatedImageUrl(site, id % images).replace(/\.jpg$/, '-300x200.jpg')}" alt=""/></figure>\n<!-- /wp:image -->\n\n` : '';
  while (content.length < contentBytes) content += paragraph(id + content.length, 300);
  return `<item>
<title><![CDATA[Generated ${page ? 'page' : 'post'} ${id}]]></title>
<link>https://example.com/?p=${id}</link>
<dc:creator><![CDATA[writer]]></dc:creator>
<guid isPermaLink="false">https://example.com/?p=${id}</guid>
<description></description>
<content:encoded><![CDATA[${content}]]></content:encoded>
<excerpt:encoded><![CDATA[Excerpt of ${id}]]></excerpt:encoded>
<wp:post_id>${id}</wp:post_id>
<wp:post_date><![CDATA[2020-01-01 10:00:00]]></wp:post_date>
<wp:post_date_gmt><![CDATA[2020-01-01 10:00:00]]></wp:post_date_gmt>
<wp:post_modified_gmt><![CDATA[2020-01-02 10:00:00]]></wp:post_modified_gmt>
<wp:comment_status><![CDATA[open]]></wp:comment_status>
<wp:post_name><![CDATA[generated-${id}]]></wp:post_name>
<wp:status><![CDATA[publish]]></wp:status>
<wp:post_parent>${parent}</wp:post_parent>
<wp:menu_order>${page ? id % 7 : 0}</wp:menu_order>
<wp:post_type><![CDATA[${page ? 'page' : 'post'}]]></wp:post_type>
<wp:is_sticky>0</wp:is_sticky>
${page ? '' : '<category domain="category" nicename="news"><![CDATA[News]]></category>\n<category domain="category" nicename="local"><![CDATA[Local]]></category>\n<category domain="post_tag" nicename="generated"><![CDATA[Generated]]></category>'}
<wp:postmeta><wp:meta_key><![CDATA[rating]]></wp:meta_key><wp:meta_value><![CDATA[${id % 5}]]></wp:meta_value></wp:postmeta>
${page ? '' : commentsOf(id, comments)}</item>
`;
}

/** The export as a stream of text chunks, one item at a time. */
export function generatedExport({ posts, contentBytes = 1500, site = 'https://generated.example.com', images = 0, comments = 0 }: GeneratedExport): Readable {
  return Readable.from(
    (function* () {
      yield header(site);
      for (let id = 1; id <= posts; id++) yield item(id, contentBytes, site, images, comments);
      yield '</channel>\n</rss>\n';
    })(),
  );
}

/** How many of the generated items are pages (every tenth) and posts. */
export function generatedCounts(posts: number): { posts: number; pages: number } {
  const pages = Math.floor(posts / 10);
  return { posts: posts - pages, pages };
}

/**
 * A small WordPress site as an export, for the default suite's import tests where WordPress's own
 * test data is not at hand: what the theme unit test exercises, in miniature. Posts of every status
 * the import keeps (published, one future, one draft) by three authors, with nested categories, tags,
 * comments and featured images; pages three levels deep; attachments of each kind (images, a video,
 * an audio file) on `site`; menus with custom, page, post and category items, one nested deeper than
 * Folio's ten levels, and an empty one. The tests read it back with the same plain-text helpers they
 * use on WordPress's files (test/support/wxr.ts), so nothing here has to agree with Folio's reader.
 */
export interface GeneratedSite {
  site: string;
  /** The posts' WordPress ids (1–12 by default); 11 is future, 12 a draft, the rest published. */
  postIds?: number[];
  /** Without them: only the posts (a second export of the same site). */
  pages?: boolean;
  menus?: boolean;
  attachments?: boolean;
}

/** The site's uploads: three images, a video and an audio file (WordPress ids 101–105). */
export const generatedSiteUploads = ['image-1.jpg', 'image-2.jpg', 'image-3.png', 'clip.mp4', 'song.mp3'];
/** The slug of one generated post, for a test to take first (an existing entry the import must rename around). */
export const generatedSiteTakenSlug = 'post-8';

const cdataOf = (text: string) => `<![CDATA[${text}]]>`;
const meta = (key: string, value: string) => `<wp:postmeta><wp:meta_key>${cdataOf(key)}</wp:meta_key><wp:meta_value>${cdataOf(value)}</wp:meta_value></wp:postmeta>`;
const siteCategories: [id: number, slug: string, parent: string, name: string][] = [
  [1, 'news', '', 'News'],
  [2, 'local', 'news', 'Local'],
  [3, 'downtown', 'local', 'Downtown'],
  [4, 'sports', '', 'Sports'],
];
const siteTags: [id: number, slug: string, name: string][] = [
  [5, 'featured', 'Featured'],
  [6, 'generated', 'Generated'],
  [7, 'unused', 'Unused'],
];

function siteItem(fields: { id: number; type: string; title: string; slug: string; creator?: string; status?: string; date?: string; parent?: number; order?: number; content?: string; extra?: string }): string {
  const date = fields.date ?? `2020-02-${String((fields.id % 28) + 1).padStart(2, '0')} 09:30:00`;
  return `<item>
<title>${cdataOf(fields.title)}</title>
<dc:creator>${cdataOf(fields.creator ?? 'writer')}</dc:creator>
<content:encoded>${cdataOf(fields.content ?? '')}</content:encoded>
<excerpt:encoded>${cdataOf('')}</excerpt:encoded>
<wp:post_id>${fields.id}</wp:post_id>
<wp:post_date>${cdataOf(date)}</wp:post_date>
<wp:post_date_gmt>${cdataOf(date)}</wp:post_date_gmt>
<wp:post_name>${cdataOf(fields.slug)}</wp:post_name>
<wp:status>${cdataOf(fields.status ?? 'publish')}</wp:status>
<wp:post_parent>${fields.parent ?? 0}</wp:post_parent>
<wp:menu_order>${fields.order ?? 0}</wp:menu_order>
<wp:post_type>${cdataOf(fields.type)}</wp:post_type>
${fields.extra ?? ''}
</item>
`;
}

function sitePost(id: number, site: string): string {
  const creator = [5, 7, 13, 14].includes(id) ? 'mapped' : id % 3 === 0 ? 'guest' : 'writer';
  const status = id === 11 ? 'future' : id === 12 ? 'draft' : 'publish';
  const date = id === 11 ? '2031-03-04 05:06:07' : undefined;
  const categories = [['news'], ['news', 'local'], ['downtown'], ['sports', 'local'], []][id % 5]!;
  const tags = [['featured'], ['generated'], ['featured', 'generated'], []][id % 4]!;
  const upload = (name: string) => `${site}/wp-content/uploads/2020/01/${name}`;
  let content = `<!-- wp:paragraph -->\n<p>Post ${id} says hello, with <a href="https://example.org/${id}">a link</a>.</p>\n<!-- /wp:paragraph -->\n`;
  // Size variants of the uploads (`-150x150`) are the same file as far as the media import goes.
  if (id % 2 === 0) content += `\n<!-- wp:image {"sizeSlug":"thumbnail"} -->\n<figure class="wp-block-image size-thumbnail"><img src="${upload(generatedSiteUploads[id % 3]!.replace(/\.(\w+)$/, '-150x150.$1'))}" alt="Image ${id}"/></figure>\n<!-- /wp:image -->\n`;
  if (id === 3) content += `\n<!-- wp:video -->\n<figure class="wp-block-video"><video controls src="${upload('clip.mp4')}"></video></figure>\n<!-- /wp:video -->\n`;
  if (id === 4) content += `\n<!-- wp:audio -->\n<figure class="wp-block-audio"><audio controls src="${upload('song.mp3')}"></audio></figure>\n<!-- /wp:audio -->\n`;
  const comments = Array.from({ length: id <= 2 ? 2 : id === 3 ? 1 : 0 }, (_, index) =>
    `<wp:comment><wp:comment_id>${id * 10 + index}</wp:comment_id><wp:comment_author>${cdataOf('Reader')}</wp:comment_author><wp:comment_date_gmt>${cdataOf('2020-03-01 10:00:00')}</wp:comment_date_gmt><wp:comment_content>${cdataOf(`Comment ${index}`)}</wp:comment_content><wp:comment_approved>${cdataOf('1')}</wp:comment_approved><wp:comment_parent>0</wp:comment_parent></wp:comment>`,
  );
  const extra = [
    ...categories.map((slug) => `<category domain="category" nicename="${slug}">${cdataOf(siteCategories.find((category) => category[1] === slug)![3])}</category>`),
    ...tags.map((slug) => `<category domain="post_tag" nicename="${slug}">${cdataOf(siteTags.find((tag) => tag[1] === slug)![2])}</category>`),
    ...([2, 4, 6].includes(id) ? [meta('_thumbnail_id', String(100 + id / 2))] : []),
    meta('rating', String(id % 5)),
    ...comments,
  ].join('\n');
  return siteItem({ id, type: 'post', title: `Post ${id}`, slug: `post-${id}`, creator, status, ...(date ? { date } : {}), content, extra });
}

/** Pages 201–207: 201 › 202 › 203 › 206, 204 › 205, and 207 alone. */
const sitePages: [id: number, parent: number][] = [
  [201, 0],
  [202, 201],
  [203, 202],
  [204, 0],
  [205, 204],
  [206, 203],
  [207, 0],
];

function siteMenuItem(id: number, menu: [slug: string, name: string], parent: number, order: number, link: { type: 'custom'; url: string } | { type: 'post_type'; object: string; id: number } | { type: 'taxonomy'; object: string; id: number }): string {
  const extra = [
    `<category domain="nav_menu" nicename="${menu[0]}">${cdataOf(menu[1])}</category>`,
    meta('_menu_item_type', link.type),
    meta('_menu_item_menu_item_parent', String(parent)),
    meta('_menu_item_object_id', String(link.type === 'custom' ? id : link.id)),
    meta('_menu_item_object', link.type === 'custom' ? 'custom' : link.object),
    meta('_menu_item_url', link.type === 'custom' ? link.url : ''),
  ].join('\n');
  return siteItem({ id, type: 'nav_menu_item', title: link.type === 'custom' ? `Link ${id}` : '', slug: String(id), order, extra });
}

export function generatedSite({ site, postIds = Array.from({ length: 12 }, (_, index) => index + 1), pages = true, menus = true, attachments = true }: GeneratedSite): string {
  const parts: string[] = [
    `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wfw="http://wellformedweb.org/CommentAPI/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
<title>Generated Site</title>
<link>${site}</link>
<description>A site generated for Folio's import tests</description>
<language>en-US</language>
<wp:wxr_version>1.2</wp:wxr_version>
<wp:base_site_url>${site}</wp:base_site_url>
<wp:base_blog_url>${site}</wp:base_blog_url>
`,
    ...[
      ['writer', 'The Writer'],
      ['guest', 'Visiting Author'],
      ['mapped', 'Mapped Author'],
    ].map(([login, name], index) => `<wp:author><wp:author_id>${index + 1}</wp:author_id><wp:author_login>${cdataOf(login!)}</wp:author_login><wp:author_email>${cdataOf(`${login}@example.com`)}</wp:author_email><wp:author_display_name>${cdataOf(name!)}</wp:author_display_name></wp:author>\n`),
    ...siteCategories.map(([id, slug, parent, name]) => `<wp:category><wp:term_id>${id}</wp:term_id><wp:category_nicename>${cdataOf(slug)}</wp:category_nicename><wp:category_parent>${cdataOf(parent)}</wp:category_parent><wp:cat_name>${cdataOf(name)}</wp:cat_name></wp:category>\n`),
    ...siteTags.map(([id, slug, name]) => `<wp:tag><wp:term_id>${id}</wp:term_id><wp:tag_slug>${cdataOf(slug)}</wp:tag_slug><wp:tag_name>${cdataOf(name)}</wp:tag_name></wp:tag>\n`),
  ];
  const siteMenus: [string, string][] = [
    ['main', 'Main menu'],
    ['deep', 'Deep menu'],
    ['empty-menu', 'Empty menu'],
  ];
  if (menus) {
    for (const [index, [slug, name]] of siteMenus.entries()) parts.push(`<wp:term><wp:term_id>${20 + index}</wp:term_id><wp:term_taxonomy>nav_menu</wp:term_taxonomy><wp:term_slug>${cdataOf(slug)}</wp:term_slug><wp:term_name>${cdataOf(name)}</wp:term_name></wp:term>\n`);
  }
  if (attachments) {
    for (const [index, name] of generatedSiteUploads.entries()) {
      const url = `${site}/wp-content/uploads/2020/01/${name}`;
      parts.push(siteItem({ id: 101 + index, type: 'attachment', title: name, slug: name.replace(/\.\w+$/, ''), status: 'inherit', extra: `<wp:attachment_url>${cdataOf(url)}</wp:attachment_url>` }));
    }
  }
  for (const id of postIds) parts.push(sitePost(id, site));
  if (pages) for (const [id, parent] of sitePages) parts.push(siteItem({ id, type: 'page', title: `Page ${id}`, slug: `page-${id}`, parent, order: id % 3, content: `<!-- wp:paragraph -->\n<p>Page ${id}.</p>\n<!-- /wp:paragraph -->\n` }));
  if (menus) {
    const main = siteMenus[0]!;
    parts.push(
      siteMenuItem(301, main, 0, 1, { type: 'custom', url: 'https://example.org/about' }),
      siteMenuItem(302, main, 0, 2, { type: 'post_type', object: 'page', id: 201 }),
      siteMenuItem(303, main, 302, 3, { type: 'post_type', object: 'page', id: 202 }),
      siteMenuItem(304, main, 303, 4, { type: 'taxonomy', object: 'category', id: 2 }),
      siteMenuItem(305, main, 0, 5, { type: 'post_type', object: 'post', id: 1 }),
      siteMenuItem(306, main, 305, 6, { type: 'custom', url: '#' }),
    );
    // Twelve levels, each item the child of the one before: the last three sit at Folio's tenth.
    for (let level = 1; level <= 12; level++) parts.push(siteMenuItem(310 + level, siteMenus[1]!, level === 1 ? 0 : 309 + level, level, { type: 'custom', url: `https://example.org/level-${level}` }));
  }
  parts.push('</channel>\n</rss>\n');
  return parts.join('');
}
