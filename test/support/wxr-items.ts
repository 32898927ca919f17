import { expect } from 'vitest';
import { api, expectCreated } from './content.ts';
import { expectSuccess, type TestApp } from './harness.ts';
import { finishedJob } from './import-checks.ts';
import { analyze } from './wxr.ts';

/** Small WordPress exports written in a test, item by item: each test builds the constructs it is about. */

/** An export of its own site (`site` keys its items, so no test sees another's as already imported) holding `items`. */
export function exportOf(site: string, items: string[]): Buffer {
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/">
<channel><title>${site}</title><link>https://${site}.example</link><wp:wxr_version>1.2</wp:wxr_version>
${items.join('\n')}
</channel></rss>`);
}

/** A post by `ann`; `inside` is the rest of its elements (dates, meta, comments), as a test wants them. */
export const wxrPost = (id: number, slug: string, status: string, inside: string) =>
  `<item><title>${slug}</title><dc:creator>ann</dc:creator><wp:post_id>${id}</wp:post_id><wp:post_type>post</wp:post_type><wp:status>${status}</wp:status>` +
  `<wp:post_name>${slug}</wp:post_name><content:encoded><![CDATA[<p>${slug}</p>]]></content:encoded>${inside}</item>`;

/** An author of the export, by login and WordPress's user id. */
export const wxrAuthor = (id: number, login: string) =>
  `<wp:author><wp:author_id>${id}</wp:author_id><wp:author_login><![CDATA[${login}]]></wp:author_login><wp:author_email><![CDATA[${login}@example.com]]></wp:author_email><wp:author_display_name><![CDATA[${login}]]></wp:author_display_name></wp:author>`;

/** A comment of an item: `fields` are its `wp:comment_*` elements by their name's end (`author`, `content`, `approved`, `parent`…). */
export const wxrComment = (id: number, fields: Record<string, string | number>) =>
  `<wp:comment><wp:comment_id>${id}</wp:comment_id>${Object.entries(fields)
    .map(([name, value]) => `<wp:comment_${name}><![CDATA[${value}]]></wp:comment_${name}>`)
    .join('')}</wp:comment>`;

/** A custom field of an item. */
export const wxrMeta = (key: string, value: string) => `<wp:postmeta><wp:meta_key><![CDATA[${key}]]></wp:meta_key><wp:meta_value><![CDATA[${value}]]></wp:meta_value></wp:postmeta>`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers as JSON

/**
 * Analyses, prepares (posts into `posts`) and imports the export as an admin; the analysis' post type and
 * the report. `execute`: more of the execute request (an author mapping).
 */
export async function importedPosts(t: TestApp, file: Buffer, options: Record<string, unknown> = { includeMenus: true }, execute: Record<string, unknown> = {}): Promise<{ postType: Json; report: Json }> {
  const request = (method: string, path: string, body?: unknown) => t.request(method, `${api}${path}`, { token: t.adminToken, body });
  const analysis = expectCreated(await analyze(t, file));
  expectSuccess(await request('POST', '/import/legacy/prepare', { analysisId: analysis.analysisId, postTypes: [{ name: 'post', collection: 'posts', enabled: true }] }));
  const job = finishedJob(await request('POST', '/import/legacy/execute', { analysisId: analysis.analysisId, options, ...execute }));
  expect(job.report.failed).toEqual([]);
  return { postType: analysis.postTypes.find((type: Json) => type.name === 'post'), report: job.report };
}
