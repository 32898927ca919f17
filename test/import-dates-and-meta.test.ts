import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rssDate } from '../src/import/wxr/normalize.ts';
import { api } from './support/content.ts';
import { createTestApp, expectSuccess, type TestApp } from './support/harness.ts';
import { exportOf, importedPosts, wxrMeta as meta, wxrPost as post } from './support/wxr-items.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers as JSON

/** What WordPress writes as an enclosure: the file's URL, its length and its type, a line each. */
const enclosure = (file: string, length: number) => `https://media.example/${file}\n${length}\naudio/mpeg\n`;

/**
 * Issue 34, found on real exports: an item's date is WordPress's GMT one, else its local one, else
 * RSS's `pubDate`, and an item with none is dated at the import with a warning, never at 1970; a
 * custom field repeated on an item keeps every value, in order.
 */
describe('WordPress import: dates and repeated custom fields', () => {
  let t: TestApp;
  const request = (method: string, path: string, body?: unknown) => t.request(method, `${api}${path}`, { token: t.adminToken, body });
  const entry = async (slug: string): Promise<Json> => expectSuccess(await request('GET', `/content/posts/${slug}`)).item;

  const imported = (file: Buffer) => importedPosts(t, file);

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("dates an item by WordPress's GMT date, else its local one, else RSS's pubDate, else the import", async () => {
    // What WordPress writes for a post with no date: the zero date, and RSS's rendering of it (now, and by older PHP).
    const noDate = (pubDate: string) => `<wp:post_date_gmt>0000-00-00 00:00:00</wp:post_date_gmt><pubDate>${pubDate}</pubDate>`;
    const { report } = await imported(
      exportOf('dated', [
        post(1, 'by-gmt', 'publish', '<wp:post_date>2024-03-01 12:00:00</wp:post_date><wp:post_date_gmt>2024-03-01 10:00:00</wp:post_date_gmt><pubDate>Sun, 03 Mar 2024 10:00:00 +0000</pubDate>'),
        post(2, 'by-local', 'publish', '<wp:post_date>2024-04-02 09:30:00</wp:post_date><wp:post_date_gmt>0000-00-00 00:00:00</wp:post_date_gmt><pubDate>Wed, 03 Apr 2024 09:30:00 +0000</pubDate>'),
        post(3, 'by-pubdate', 'publish', '<pubDate>Tue, 07 May 2024 08:15:00 +0200</pubDate>'),
        post(4, 'undated', 'publish', noDate('Wed, 30 Nov -0001 00:00:00 +0000')),
        post(5, 'undated-future', 'future', noDate('Tue, 30 Nov 1999 00:00:00 +0000')),
      ]),
    );
    const importTime = t.clock.now().toISOString();
    expect(await entry('by-gmt')).toMatchObject({ status: 'published', createdAt: '2024-03-01T10:00:00.000Z', publishedAt: '2024-03-01T10:00:00.000Z' });
    // The site's local time, read as GMT as before: the export does not say the site's zone.
    expect(await entry('by-local')).toMatchObject({ status: 'published', createdAt: '2024-04-02T09:30:00.000Z', publishedAt: '2024-04-02T09:30:00.000Z' });
    expect(await entry('by-pubdate')).toMatchObject({ status: 'published', createdAt: '2024-05-07T06:15:00.000Z', publishedAt: '2024-05-07T06:15:00.000Z' });
    expect(await entry('undated')).toMatchObject({ status: 'published', createdAt: importTime, updatedAt: importTime, publishedAt: importTime });
    // Scheduled for no time at all, it would be published at once: it waits as a draft.
    const future = await entry('undated-future');
    expect(future).toMatchObject({ status: 'draft', createdAt: importTime });
    expect(future.scheduledAt).toBeUndefined();
    expect(report.warnings).toEqual([
      expect.objectContaining({ sourceId: '4', message: 'no date in the source: dated at the import', entry: { collection: 'posts', id: (await entry('undated')).id } }),
      expect.objectContaining({ sourceId: '5', message: 'no date in the source: dated at the import, and imported as a draft rather than scheduled' }),
    ]);
  });

  it('keeps every value of a custom field repeated on an item, in order; a key seen once stays a value', async () => {
    const { postType } = await imported(
      exportOf('repeats', [
        post(1, 'podcast', 'publish', '<wp:post_date_gmt>2024-03-01 10:00:00</wp:post_date_gmt>' + meta('enclosure', enclosure('one.mp3', 100)) + meta('_wp_old_slug', 'first-name') + meta('rating', '4') + meta('enclosure', enclosure('two.mp3', 200)) + meta('_wp_old_slug', 'second-name')),
        post(2, 'single', 'publish', '<wp:post_date_gmt>2024-03-02 10:00:00</wp:post_date_gmt>' + meta('enclosure', enclosure('three.mp3', 300)) + meta('_wp_old_slug', 'old-name') + meta('rating', '5')),
        // A menu item's link, read as one value, is the first (as WordPress reads a repeated key).
        `<item><title>Listen</title><wp:post_id>3</wp:post_id><wp:post_type>nav_menu_item</wp:post_type><wp:status>publish</wp:status><wp:menu_order>1</wp:menu_order>` +
          `<category domain="nav_menu" nicename="shows"><![CDATA[Shows]]></category>${meta('_menu_item_type', 'custom')}${meta('_menu_item_menu_item_parent', '0')}` +
          `${meta('_menu_item_url', 'https://first.example/listen')}${meta('_menu_item_url', 'https://second.example/listen')}</item>`,
      ]),
    );
    // A field one of whose items holds several values holds JSON.
    expect(postType.fieldsToAdd).toEqual(expect.arrayContaining([{ slug: 'enclosure', label: 'enclosure', type: 'json' }, { slug: 'rating', label: 'rating', type: 'integer' }]));

    const podcast = await entry('podcast');
    expect(podcast.data.enclosure).toEqual([enclosure('one.mp3', 100), enclosure('two.mp3', 200)]);
    expect(podcast.data.meta).toEqual({ _wp_old_slug: ['first-name', 'second-name'] });
    expect(podcast.data.rating).toBe(4);
    const single = await entry('single');
    expect(single.data.enclosure).toBe(enclosure('three.mp3', 300));
    expect(single.data.meta).toEqual({ _wp_old_slug: 'old-name' });

    const menu = expectSuccess(await request('GET', '/menus/shows')).item;
    expect(menu.items).toEqual([expect.objectContaining({ type: 'custom', url: 'https://first.example/listen' })]);
  });
});

describe("rssDate: RSS's RFC 822 dates", () => {
  it('reads numeric and named zones, and two-digit years as RFC 2822 does', () => {
    expect(rssDate('Tue, 07 May 2024 08:15:00 +0200')).toBe('2024-05-07T06:15:00.000Z');
    expect(rssDate('7 May 2024 08:15:00 -0130')).toBe('2024-05-07T09:45:00.000Z');
    expect(rssDate('Tue, 07 May 24 08:15 EST')).toBe('2024-05-07T13:15:00.000Z');
    expect(rssDate('Fri, 07 May 99 08:15:00 GMT')).toBe('1999-05-07T08:15:00.000Z');
  });

  it("gives nothing for WordPress's no-date, impossible days and other text", () => {
    for (const text of ['Mon, 30 Nov -0001 00:00:00 +0000', 'Tue, 30 Nov 1999 00:00:00 +0000', 'Sat, 31 Feb 2024 10:00:00 +0000', 'Tue, 07 May 0024 08:15:00 +0000', '2024-05-07 08:15:00', 'Tue, 07 May 2024 25:00:00 +0000', 'Tue, 07 May 2024 08:15:00 XYZ', '']) {
      expect(rssDate(text), text).toBeUndefined();
    }
  });
});
