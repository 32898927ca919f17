import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { api } from './content.ts';
import type { ApiResponse, TestApp } from './harness.ts';
import { multipart } from './media.ts';
import { wordpressDataDir } from './wordpress-data.ts';

/** WordPress's own test data (read where it lies, never copied into the repository): the fidelity suite's alone. */
export const fixturesDir = wordpressDataDir;
export const fixture = (name: string) => path.join(fixturesDir, name);
export const themeUnitTest = fixture('theme-test-data/themeunittestdata.wordpress.xml');
export const blockTestData = fixture('theme-test-data/64-block-test-data.xml');

/** Where the shared test data keeps its media: the public internet, which no test may reach. */
const publicMediaOrigin = 'https://wpthemetestdata.files.wordpress.com';

/**
 * A shared export with its media moved to `origin`, a loopback fixture server: what an import with
 * includeMedia downloads then is the fixture's, never the public site's.
 */
export function withMediaAt(file: string, origin: string): Buffer {
  // Byte for byte (latin1 maps each byte to one character), whatever the file's encoding.
  return Buffer.from(fs.readFileSync(file, 'latin1').replaceAll(publicMediaOrigin, origin), 'latin1');
}

/** The paths of an export's attachments on the media site (`/2008/06/canola2.jpg`). */
export function attachmentPaths(file: string): string[] {
  return [...fs.readFileSync(file, 'utf8').matchAll(/<wp:attachment_url>(?:<!\[CDATA\[)?([^<\]]+)/g)].map(([, url]) => new URL(url!.trim()).pathname);
}

/** Uploads an export (a file's path, or bytes) to the analyze endpoint. */
export async function analyze(t: TestApp, file: string | Uint8Array, token = t.adminToken, filename = 'export.xml'): Promise<ApiResponse> {
  const bytes = typeof file === 'string' ? fs.readFileSync(file) : file;
  const { body, contentType } = await multipart({ file: { bytes, filename, type: 'application/xml' } });
  return t.request('POST', `${api}/import/legacy/analyze`, { token, rawBody: body, headers: { 'content-type': contentType } });
}

/** One item of an export as the test reads it, by plain text matching (independent of Folio's reader). */
export interface SourceItem {
  id: string;
  type: string;
  status: string;
  slug: string;
  parent: string;
  dateGmt: string;
  creator: string;
  /** The item's password; empty when it has none. */
  password: string;
  terms: { domain: string; nicename: string }[];
  meta: Map<string, string>;
}

const cdata = (text: string) => text.replace(/^<!\[CDATA\[([\s\S]*)\]\]>$/, '$1').trim();
const tag = (xml: string, name: string) => {
  const match = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml);
  return match ? cdata(match[1]!) : '';
};

export function sourceItems(file: string): SourceItem[] {
  const xml = fs.readFileSync(file, 'utf8');
  return [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map(([, body]) => ({
    id: tag(body!, 'wp:post_id'),
    type: tag(body!, 'wp:post_type'),
    status: tag(body!, 'wp:status'),
    slug: tag(body!, 'wp:post_name'),
    parent: tag(body!, 'wp:post_parent'),
    dateGmt: tag(body!, 'wp:post_date_gmt'),
    creator: tag(body!, 'dc:creator'),
    password: tag(body!, 'wp:post_password'),
    terms: [...body!.matchAll(/<category domain="([^"]+)" nicename="([^"]+)">/g)].map(([, domain, nicename]) => ({ domain: domain!, nicename: nicename! })),
    meta: new Map([...body!.matchAll(/<wp:postmeta>([\s\S]*?)<\/wp:postmeta>/g)].map(([, meta]) => [tag(meta!, 'wp:meta_key'), tag(meta!, 'wp:meta_value')])),
  }));
}

/** The categories of an export's header: slug → parent slug ('' at the top). */
export function sourceCategories(file: string): Map<string, string> {
  const xml = fs.readFileSync(file, 'utf8');
  return new Map([...xml.matchAll(/<wp:category>([\s\S]*?)<\/wp:category>/g)].map(([, body]) => [tag(body!, 'wp:category_nicename'), tag(body!, 'wp:category_parent')]));
}

/** Every item of a paged list. */
export async function allPages<T>(t: TestApp, path: string, token = t.adminToken): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const response = await t.request('GET', `${api}${path}${separator}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    items.push(...(response.body.data.items as T[]));
    cursor = response.body.data.nextCursor;
  } while (cursor);
  return items;
}

/** Source post id → the entry the import made of it, from the import's own map of source items. */
export async function importedEntries(t: TestApp): Promise<Map<string, string>> {
  const rows = await t.db.kysely.selectFrom('import_items').select(['source_id', 'target_id']).where('kind', '=', 'post').execute();
  return new Map(rows.map((row) => [row.source_id, row.target_id]));
}

/**
 * A small export of its own site (`name` keys its items, so no test sees another's as already
 * imported), by its author ann (ann@`name`.example): a published post (with a comment held for
 * moderation), a private one (a warning), a trashed one (skipped), a post whose slug the site already
 * has (renamed, a warning), a page, and with `picture` an attachment at that URL.
 */
export function smallExport(name: string, picture?: string): Buffer {
  const comment = (id: number) =>
    id === 1 ? `<wp:comment><wp:comment_id>1</wp:comment_id><wp:comment_author>Reader</wp:comment_author><wp:comment_content>Nice post</wp:comment_content><wp:comment_approved>0</wp:comment_approved></wp:comment>` : '';
  const item = (id: number, type: string, status: string, slug: string) =>
    `<item><title>${name} ${slug}</title><dc:creator>ann</dc:creator><wp:post_id>${id}</wp:post_id><wp:post_type>${type}</wp:post_type><wp:status>${status}</wp:status>` +
    `<wp:post_name>${slug}</wp:post_name><wp:post_date_gmt>2024-03-01 10:00:00</wp:post_date_gmt><content:encoded><![CDATA[<p>Body of ${slug}</p>]]></content:encoded>${comment(id)}</item>`;
  const attachment = picture ? `<item><title>Picture</title><wp:post_id>9</wp:post_id><wp:post_type>attachment</wp:post_type><wp:status>inherit</wp:status><wp:post_name>picture</wp:post_name><wp:attachment_url>${picture}</wp:attachment_url></item>` : '';
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>${name}</title><link>https://${name}.example</link><wp:wxr_version>1.2</wp:wxr_version>
<wp:author><wp:author_login>ann</wp:author_login><wp:author_email>ann@${name}.example</wp:author_email><wp:author_display_name><![CDATA[Ann Example]]></wp:author_display_name></wp:author>
${item(1, 'post', 'publish', `${name}-hello`)}${item(2, 'post', 'private', `${name}-secret`)}${item(3, 'post', 'trash', `${name}-binned`)}${item(4, 'post', 'publish', 'taken')}${item(5, 'page', 'publish', `${name}-about`)}${attachment}
</channel></rss>`);
}
