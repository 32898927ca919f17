import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, createEntry } from './support/content.ts';
import { expectSuccess } from './support/harness.ts';
import { distinctPng } from './support/media.ts';
import { eventually, expectAccessible, panelSuite, signedInPage } from './support/panel.ts';

/**
 * The media library screen (decisions/0045) in Debian's chromium: files dropped many at once, each
 * with its progress and a refused one named; the details dialog editing alt text; the delete warning
 * naming the entries that use the file; search and the type filter. axe-core on every screen.
 */
const panel = panelSuite();
let page: Page;
let cspViolations: string[];

interface MediaItem {
  id: string;
  filename: string;
  alt: string | null;
}

const photoNames = Array.from({ length: 10 }, (_, index) => `photo-${String(index + 1).padStart(2, '0')}.png`);

async function library(query = ''): Promise<MediaItem[]> {
  return expectSuccess(await panel.t.request('GET', `${api}/media?limit=100${query}`, { token: panel.t.adminToken })).items;
}

/** The radio inputs are visually hidden (React Aria): a person clicks their labels. */
const typeFilter = () => page.getByRole('radiogroup', { name: 'Type' });
const grid = () => page.getByRole('list', { name: 'Media items' });
/** The names the tiles show (a tile without a thumbnail also shows its type). */
const tileNames = () => grid().getByRole('listitem').locator('.media-name').allTextContents();

/**
 * Drops files on the drop zone as a person does from their file manager, through the DevTools
 * protocol's drag input: the page gets dragenter, dragover and drop with files backed by the file
 * system. (A DataTransfer built in the page holds files without file-system entries, which React Aria,
 * like the browser for a real drag, reads through webkitGetAsEntry: they would not be seen.)
 */
async function dropFiles(files: { name: string; bytes: Uint8Array }[]): Promise<void> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-drop-'));
  const paths = files.map(({ name, bytes }) => {
    const file = path.join(folder, name);
    fs.writeFileSync(file, bytes);
    return file;
  });
  const box = (await page.locator('.media-drop').boundingBox())!;
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const cdp = await page.context().newCDPSession(page);
  const data = { items: [], files: paths, dragOperationsMask: 1 };
  await page.mouse.move(at.x, at.y);
  for (const type of ['dragEnter', 'dragOver', 'drop'] as const) await cdp.send('Input.dispatchDragEvent', { type, ...at, data });
  await cdp.detach();
}

async function openTile(name: string): Promise<void> {
  await grid().getByRole('button', { name }).click();
  await eventually(() => page.getByRole('dialog').isVisible()).toBe(true);
}

beforeAll(async () => {
  await createCollection(panel.t, 'posts', [{ slug: 'title', label: 'Title', type: 'string' }, { slug: 'hero', label: 'Hero', type: 'image' }], { label: 'Posts' });
  ({ page, cspViolations } = await signedInPage(panel.browser, panel.server, panel.t.admin.id));
}, 60_000);

describe('the media library', () => {
  it('uploads ten files dropped at once, each with its progress, and names the one refused while the others go on', async () => {
    await page.goto(panel.server.url('/'));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Media' }).click();
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Media library');
    await eventually(() => page.getByText('No media here.').isVisible()).toBe(true);
    await expectAccessible(page, 'media library, empty');

    const photos = await Promise.all(photoNames.map(async (name, index) => ({ name, bytes: await distinctPng(index) })));
    const refused = { name: 'page.html', bytes: Buffer.from('<!doctype html><html><body><p>Not media</p></body></html>') };
    // A document too, for the type filter below; Chrome takes one synthetic drag per page.
    const pdf = { name: 'annual-report.pdf', bytes: Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n') };
    await dropFiles([...photos.slice(0, 5), refused, ...photos.slice(5), pdf]);

    const uploads = page.getByRole('region', { name: 'Uploads' });
    await eventually(() => uploads.getByRole('status').textContent()).toBe('11 of 12 uploaded');
    const rows = uploads.getByRole('listitem');
    for (const name of photoNames) await eventually(() => rows.filter({ hasText: name }).textContent()).toContain('Uploaded');
    await eventually(() => rows.filter({ hasText: 'page.html' }).textContent()).toContain('Not uploaded: Files of type text/html are not allowed here');
    await eventually(async () => (await tileNames()).sort()).toEqual([pdf.name, ...photoNames]);
    expect((await library()).map((item) => item.filename).sort()).toEqual([pdf.name, ...photoNames]);
    await expectAccessible(page, 'media library after uploads');
  });

  it('edits an item’s alternative text in its details, as the API then reads it', async () => {
    await openTile('photo-03.png');
    const dialog = page.getByRole('dialog');
    await eventually(() => dialog.getByText('image/png').isVisible()).toBe(true);
    await eventually(() => dialog.getByText('4 × 3 pixels').isVisible()).toBe(true);
    await expectAccessible(page, 'media details');
    await dialog.getByLabel('Alternative text').fill('A dark square');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await eventually(() => dialog.getByRole('status').textContent()).toBe('Saved.');
    const item = (await library()).find((candidate) => candidate.filename === 'photo-03.png')!;
    expect(item.alt).toBe('A dark square');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await eventually(() => page.getByRole('dialog').count()).toBe(0);
  });

  it('warns before deleting a file an entry uses, naming the entry, then deletes it', async () => {
    const photo = (await library()).find((candidate) => candidate.filename === 'photo-05.png')!;
    await createEntry(panel.t, 'posts', { data: { title: 'The harbour at dawn', hero: photo.id } });
    await openTile('photo-05.png');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Delete…' }).click();
    await eventually(() => dialog.getByRole('alert').textContent()).toContain('One entry uses this file');
    expect(await dialog.getByRole('alert').textContent()).toContain('The harbour at dawn (posts: hero)');
    await expectAccessible(page, 'media delete warning');
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await eventually(() => page.getByRole('dialog').count()).toBe(0);
    await eventually(async () => (await tileNames()).includes('photo-05.png')).toBe(false);
    expect((await panel.t.request('GET', `${api}/media/${photo.id}`, { token: panel.t.adminToken })).status).toBe(404);
  });

  it('searches and filters by type, keeping both in the URL', async () => {
    await page.getByLabel('Search media').fill('photo-07');
    await eventually(tileNames).toEqual(['photo-07.png']);
    expect(new URL(page.url()).searchParams.get('q')).toBe('photo-07');
    await page.getByLabel('Search media').fill('');
    await eventually(async () => (await tileNames()).length).toBe(10);

    await typeFilter().getByText('Documents').click();
    await eventually(tileNames).toEqual(['annual-report.pdf']);
    expect(new URL(page.url()).searchParams.get('type')).toBe('document');
    await typeFilter().getByText('Images').click();
    await eventually(async () => (await tileNames()).sort()).toEqual(photoNames.filter((name) => name !== 'photo-05.png'));
    await typeFilter().getByText('Video').click();
    await eventually(() => page.getByText('No media here.').isVisible()).toBe(true);
    await expectAccessible(page, 'media library filtered');

    // The view is the URL's: loading it again shows the same.
    await page.goto(panel.server.url('/media?type=document'));
    await eventually(tileNames).toEqual(['annual-report.pdf']);
    expect(cspViolations).toEqual([]);
  });

  it('opens as the picker from an image field of the editor, and the entry then names the item chosen', async () => {
    const { id } = await createEntry(panel.t, 'posts', { data: { title: 'With a hero' } });
    await page.goto(panel.server.url(`/content/posts/${id}`));
    const hero = page.getByRole('group', { name: 'Hero' });
    await hero.getByRole('button', { name: 'Choose from the media library' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose an image' });
    // Images only: the document is not offered.
    await eventually(async () => (await picker.getByRole('listitem').locator('.media-name').allTextContents()).sort()).toEqual(photoNames.filter((name) => name !== 'photo-05.png'));
    await expectAccessible(page, 'media picker');
    await picker.getByRole('button', { name: 'photo-07.png' }).click();
    await eventually(() => page.getByRole('dialog').count()).toBe(0);
    // The thumbnail at once (its alt text is empty until one is given, so it is presentational).
    await eventually(() => hero.locator('img').getAttribute('src')).toContain('photo-07');
    const [chosen] = await library('&q=photo-07');
    await eventually(async () => (expectSuccess(await panel.t.request('GET', `${api}/content/posts/${id}`, { token: panel.t.adminToken })).item.data as { hero?: { id?: string } }).hero?.id).toBe(chosen!.id);
    expect(cspViolations).toEqual([]);
  });
});
