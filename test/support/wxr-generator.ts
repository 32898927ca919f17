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

function item(id: number, contentBytes: number, site: string, images: number): string {
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
</item>
`;
}

/** The export as a stream of text chunks, one item at a time. */
export function generatedExport({ posts, contentBytes = 1500, site = 'https://generated.example.com', images = 0 }: GeneratedExport): Readable {
  return Readable.from(
    (function* () {
      yield header(site);
      for (let id = 1; id <= posts; id++) yield item(id, contentBytes, site, images);
      yield '</channel>\n</rss>\n';
    })(),
  );
}

/** How many of the generated items are pages (every tenth) and posts. */
export function generatedCounts(posts: number): { posts: number; pages: number } {
  const pages = Math.floor(posts / 10);
  return { posts: posts - pages, pages };
}
