import { describe, expect, it } from 'vitest';
import { roles } from '../src/core/roles.ts';
import { api } from './support/content.ts';
import { describedBy, eventually, expectAccessible, panelSuite, signedInPage } from './support/panel.ts';

/**
 * The panel's sections (reusable blocks, issue 33), in Debian's chromium: an Editor creates one,
 * writes its content in the Portable Text editor, gives it keywords, has a bad slug refused at its
 * input, finds it by a keyword, and deletes it, each step as the API then reads it; an Author is
 * offered none of it.
 */
const panel = panelSuite();

const request = (method: string, path: string) => panel.t.request(method, `${api}${path}`, { token: panel.t.adminToken });
type Block = { children: { text: string }[] };
const textOf = (blocks: Block[]) => blocks.map((block) => block.children.map((child) => child.text).join('')).join('\n');

describe('the sections screens', () => {
  it('creates a section, writes its content, finds it by keyword, and deletes it', { timeout: 90_000 }, async () => {
    const { user: editor } = await panel.t.userWithToken(roles.editor, ['content:read']);
    const { context, page } = await signedInPage(panel.browser, panel.server, editor.id);
    try {
      await page.goto(panel.server.url('/'));
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sections' }).click();
      await page.getByRole('heading', { name: 'Sections', exact: true, level: 1 }).waitFor();
      const form = page.getByRole('region', { name: 'New section' });
      await form.getByLabel('Title').fill('Opening hours');
      expect(await form.getByLabel('Slug').inputValue()).toBe('opening-hours');
      await form.getByRole('button', { name: 'Create the section' }).click();
      await page.getByRole('heading', { name: 'Section: Opening hours', level: 1 }).waitFor();

      const content = page.getByRole('textbox', { name: 'Content' });
      await content.click();
      await page.keyboard.type('Open daily from nine.');
      await page.getByLabel('Keywords').fill('hours, times');
      await expectAccessible(page, 'section editor');
      await page.getByRole('button', { name: 'Save the section' }).click();
      await eventually(() => page.getByRole('status').first().textContent()).toBe('Opening hours is saved.');
      const saved = (await request('GET', '/sections/opening-hours')).body.data.item;
      expect(textOf(saved.content)).toBe('Open daily from nine.');
      expect(saved.keywords).toEqual(['hours', 'times']);

      await page.getByLabel('Slug').fill('Not a slug!');
      await page.getByRole('button', { name: 'Save the section' }).click();
      await eventually(() => describedBy(page.getByLabel('Slug'))).toMatch(/\S/);
      expect((await request('GET', '/sections/opening-hours')).status).toBe(200);

      await page.getByRole('link', { name: '← All sections' }).click();
      await page.getByLabel('Find by title, slug or keyword').fill('times');
      await eventually(() => page.getByRole('table', { name: 'Sections' }).getByRole('rowheader').allTextContents()).toEqual(['Opening hours']);
      await page.getByRole('link', { name: 'Opening hours' }).click();
      await page.getByRole('button', { name: 'Delete Opening hours' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete the section Opening hours?' });
      expect(await confirm.textContent()).toContain('widgets that show it will show it as missing');
      await confirm.getByRole('button', { name: 'Delete the section' }).click();
      await page.getByRole('heading', { name: 'Sections', exact: true, level: 1 }).waitFor();
      expect((await request('GET', '/sections/opening-hours')).status).toBe(404);
    } finally {
      await context.close();
    }
  });

  it('offers an Author no sections, and says so at their address', { timeout: 60_000 }, async () => {
    const { user: author } = await panel.t.userWithToken(roles.author, ['content:read']);
    const { context, page } = await signedInPage(panel.browser, panel.server, author.id);
    try {
      await page.goto(panel.server.url('/sections'));
      await eventually(() => page.getByRole('main').textContent()).toContain('Only editors and administrators manage the site’s sections.');
      expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sections' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
