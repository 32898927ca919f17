import { describe, expect, it } from 'vitest';
import { api, createCollection, createEntry } from './support/content.ts';
import { expectSuccess } from './support/harness.ts';
import { tinyPng, uploadMedia } from './support/media.ts';
import { describedBy, eventually, expectAccessible, expectAdminsOnly, panelSuite, signedInPage } from './support/panel.ts';

/**
 * The panel's schema builder (issue 33), in Debian's chromium: an admin creates a collection, adds
 * fields of several types with their rules (a wrong rule refused at its input), moves, changes and
 * deletes a field (told first how many entries lose their value), copies the TypeScript types, and
 * deletes the collection (told how many entries go with it), each step as the API then reads it; it
 * builds a collection with a field of every type and an entry using all of them; it gives fields
 * defaults (one out of the field's rules refused at its input); an Editor is offered none of it.
 */
const panel = panelSuite();

type Field = { slug: string; label: string; type: string; required: boolean; searchable: boolean; validation: Record<string, unknown>; defaultValue?: unknown };
const fieldsOf = async (collection: string) => (await panel.t.request('GET', `${api}/schema/collections/${collection}/fields`, { token: panel.t.adminToken })).body.data.items as Field[];

describe('the schema builder', () => {
  it('creates a collection, adds, moves, changes and deletes its fields, and deletes it', { timeout: 90_000 }, async () => {
    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    try {
      await page.goto(panel.server.url('/'));
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Schema' }).click();
      await page.getByRole('heading', { name: 'Schema', exact: true, level: 1 }).waitFor();
      const newCollection = page.getByRole('region', { name: 'New collection' });
      await newCollection.getByLabel('Label', { exact: true }).fill('Recipe cards');
      expect(await newCollection.getByLabel('Slug').inputValue()).toBe('recipe_cards');
      await newCollection.getByLabel('Slug').fill('recipes');
      await newCollection.getByLabel('Search').check();
      await newCollection.getByRole('button', { name: 'Create the collection' }).click();
      await page.getByRole('heading', { name: 'Schema of Recipe cards', level: 1 }).waitFor();
      await expectAccessible(page, 'schema of a collection');

      const addField = page.getByRole('region', { name: 'Add a field' });
      const add = async (label: string, type: string, fill: () => Promise<void> = async () => {}) => {
        await addField.getByLabel('Label', { exact: true }).fill(label);
        await addField.getByLabel('Type').selectOption({ label: type });
        await fill();
        await addField.getByRole('button', { name: 'Add the field' }).click();
        await eventually(() => page.getByRole('status').first().textContent()).toBe(`The field ${label} is added.`);
      };
      await add('Title', 'Short text', async () => {
        await addField.getByLabel('Required').check();
        await addField.getByLabel('Searchable').check();
      });
      await add('Summary', 'Long text');
      await add('Course', 'One choice', () => addField.getByLabel('Choices').fill('Starter\nMain\n\nDessert'));

      // A rule the server refuses is said at its input, and nothing is added.
      await addField.getByLabel('Label', { exact: true }).fill('Servings');
      await addField.getByLabel('Type').selectOption({ label: 'Whole number' });
      await addField.getByLabel('Smallest value').fill('10');
      await addField.getByLabel('Largest value').fill('5');
      await addField.getByRole('button', { name: 'Add the field' }).click();
      await eventually(() => describedBy(addField.getByLabel('Smallest value'))).toContain('Must not be greater than');
      expect((await fieldsOf('recipes')).map((field) => field.slug)).toEqual(['title', 'summary', 'course']);
      expect((await fieldsOf('recipes'))[0]).toMatchObject({ type: 'string', required: true, searchable: true });
      expect((await fieldsOf('recipes'))[2]).toMatchObject({ type: 'select', validation: { options: ['Starter', 'Main', 'Dessert'] } });

      const fields = page.getByRole('grid', { name: 'Fields of Recipe cards' });
      await fields.getByRole('button', { name: 'Move Course up' }).click();
      await eventually(() => page.getByRole('status').first().textContent()).toBe('Course is now field 2 of 3.');
      expect((await fieldsOf('recipes')).map((field) => field.slug)).toEqual(['title', 'course', 'summary']);
      await eventually(() => fields.getByRole('row').allTextContents()).toEqual([expect.stringContaining('Title'), expect.stringContaining('Course'), expect.stringContaining('Summary')]);

      // Dragged with the keyboard, as React Aria's drag and drop allows: Enter on the handle, arrows to the place, Enter.
      await fields.getByRole('button', { name: 'Drag Summary' }).focus();
      await page.keyboard.press('Enter');
      for (let n = 0; n < 3; n++) await page.keyboard.press('ArrowUp');
      await page.keyboard.press('Enter');
      await eventually(() => page.getByRole('status').first().textContent()).toBe('Summary is now field 1 of 3.');
      expect((await fieldsOf('recipes')).map((field) => field.slug)).toEqual(['summary', 'title', 'course']);
      await fields.getByRole('button', { name: 'Edit Summary' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit the field Summary' });
      await dialog.getByLabel('Label', { exact: true }).fill('Short summary');
      await dialog.getByRole('button', { name: 'Save the field' }).click();
      await eventually(() => page.getByRole('status').first().textContent()).toBe('The field Short summary is saved.');
      expect((await fieldsOf('recipes')).find((field) => field.slug === 'summary')?.label).toBe('Short summary');

      for (const title of ['Soup', 'Salad']) await createEntry(panel.t, 'recipes', { data: { title, summary: `About ${title}`, course: 'Starter' } });
      await createEntry(panel.t, 'recipes', { data: { title: 'Cake' } });
      await page.reload();
      await fields.getByRole('button', { name: 'Delete Short summary' }).click();
      const deleteField = page.getByRole('alertdialog', { name: 'Delete the field Short summary?' });
      expect(await deleteField.textContent()).toContain('This deletes the field summary and its values in 2 entries.');
      await deleteField.getByRole('button', { name: 'Delete the field' }).click();
      await eventually(() => page.getByRole('status').first().textContent()).toBe('The field Short summary is deleted.');
      expect((await fieldsOf('recipes')).map((field) => field.slug)).toEqual(['title', 'course']);

      await page.getByRole('link', { name: '← All collections' }).click();
      await eventually(() => page.getByRole('region', { name: 'TypeScript types' }).getByLabel('TypeScript types').textContent()).toContain('course?: "Starter" | "Main" | "Dessert"');
      await page.getByRole('table', { name: 'Collections' }).getByRole('link', { name: 'Recipe cards' }).click();
      await page.getByRole('button', { name: 'Delete Recipe cards' }).click();
      const deleteCollection = page.getByRole('alertdialog', { name: 'Delete the collection Recipe cards?' });
      expect(await deleteCollection.textContent()).toContain('This deletes the collection recipes and its 3 entries, with their revisions.');
      await deleteCollection.getByRole('button', { name: 'Delete the collection' }).click();
      await page.getByRole('heading', { name: 'Schema', exact: true, level: 1 }).waitFor();
      expect((await panel.t.request('GET', `${api}/schema/collections/recipes`, { token: panel.t.adminToken })).status).toBe(404);
    } finally {
      await context.close();
    }
  });

  it('creates a collection with a field of every type, then an entry using all of them, as the API reads it back', { timeout: 120_000 }, async () => {
    expectSuccess(await panel.t.request('POST', `${api}/settings`, { token: panel.t.adminToken, body: { timezone: 'UTC' } }));
    await createCollection(panel.t, 'chefs', [{ slug: 'name', label: 'Name', type: 'string' }], { label: 'Chefs', labelSingular: 'Chef' });
    const chef = await createEntry(panel.t, 'chefs', { data: { name: 'Julia Child' }, status: 'published' });
    const photo = await uploadMedia(panel.t, await tinyPng('#c60'), { filename: 'dish.png' });
    const card = await uploadMedia(panel.t, Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n'), { filename: 'card.pdf', type: 'application/pdf' });
    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    try {
      await page.goto(panel.server.url('/schema'));
      const newCollection = page.getByRole('region', { name: 'New collection' });
      await newCollection.getByLabel('Label', { exact: true }).fill('Plates');
      await newCollection.getByRole('button', { name: 'Create the collection' }).click();
      await page.getByRole('heading', { name: 'Schema of Plates', level: 1 }).waitFor();
      const addField = page.getByRole('region', { name: 'Add a field' });
      const choices = (lines: string) => () => addField.getByLabel('Choices').fill(lines);
      const types: [string, string, (() => Promise<void>)?][] = [
        ['Title', 'Short text'],
        ['Notes', 'Long text'],
        ['Weight', 'Number'],
        ['Servings', 'Whole number'],
        ['Vegan', 'Yes or no'],
        ['Served at', 'Date and time'],
        ['Course', 'One choice', choices('Starter\nMain')],
        ['Temperature', 'Several choices', choices('Hot\nCold')],
        ['Method', 'Rich text'],
        ['Photo', 'Image'],
        ['Card', 'File'],
        ['Chef', 'Entry of a collection', async () => void (await addField.getByLabel('Entries of', { exact: true }).selectOption({ label: 'Chefs' }))],
        ['Extra', 'JSON'],
        ['Handle', 'Slug'],
        ['Source', 'Web address'],
      ];
      for (const [label, type, fill] of types) {
        await addField.getByLabel('Label', { exact: true }).fill(label);
        await addField.getByLabel('Type').selectOption({ label: type });
        await fill?.();
        await addField.getByRole('button', { name: 'Add the field' }).click();
        await eventually(() => page.getByRole('status').first().textContent()).toBe(`The field ${label} is added.`);
      }
      const fields = await fieldsOf('plates');
      expect(new Set(fields.map((field) => field.type))).toEqual(new Set(['string', 'text', 'number', 'integer', 'boolean', 'datetime', 'select', 'multiSelect', 'portableText', 'image', 'file', 'reference', 'json', 'slug', 'url']));

      await page.goto(panel.server.url('/content/plates'));
      await page.getByRole('link', { name: /^New / }).click();
      // The editor, not the list it was opened from (whose "Sort by Title" also answers to Title).
      await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toMatch(/^New /);
      await page.getByRole('textbox', { name: 'Title' }).fill('Gratin');
      await page.getByLabel('Notes').fill('Serve hot.\nWith salad.');
      await page.getByLabel('Weight').fill('1.25');
      await page.getByLabel('Servings').fill('4');
      await page.getByLabel('Vegan').check();
      await page.getByRole('group', { name: 'Served at' }).getByRole('spinbutton', { name: /month/i }).click();
      await page.keyboard.type('06152030');
      await page.keyboard.type('0730');
      await page.keyboard.type('PM');
      await page.getByLabel('Course').selectOption('Main');
      await page.getByRole('group', { name: 'Temperature' }).getByLabel('Hot').check();
      await page.getByRole('textbox', { name: 'Method' }).click();
      await page.keyboard.type('Bake for an hour.');
      await page.getByRole('group', { name: 'Photo' }).getByRole('button', { name: 'Choose from the media library' }).click();
      await page.getByRole('dialog', { name: 'Choose an image' }).getByRole('button', { name: 'dish.png' }).click();
      await eventually(() => page.getByRole('dialog').count()).toBe(0);
      await page.getByRole('group', { name: 'Card' }).getByRole('button', { name: 'Choose from the media library' }).click();
      await page.getByRole('dialog', { name: 'Choose a file' }).getByRole('button', { name: 'card.pdf' }).click();
      await eventually(() => page.getByRole('dialog').count()).toBe(0);
      await page.getByRole('combobox', { name: 'Chef' }).fill('Julia');
      await page.getByRole('option', { name: 'Julia Child' }).click();
      await page.getByLabel('Extra').fill('{"oven": 180}');
      await page.getByLabel('Handle').fill('gratin-dauphinois');
      await page.getByLabel('Source').fill('https://example.com/gratin');
      await expectAccessible(page, 'an entry of every field type');
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await eventually(() => page.getByRole('complementary').getByText('Published', { exact: true }).count()).toBe(1);
      const id = /\/content\/plates\/([0-9A-Z]{26})$/.exec(page.url())?.[1];
      expect(id).toBeDefined();

      const item = expectSuccess(await panel.t.request('GET', `${api}/content/plates/${id}`, { token: panel.t.adminToken })).item;
      expect(item.data).toMatchObject({
        title: 'Gratin',
        notes: 'Serve hot.\nWith salad.',
        weight: 1.25,
        servings: 4,
        vegan: true,
        served_at: '2030-06-15T19:30:00.000Z',
        course: 'Main',
        temperature: ['Hot'],
        photo: { id: photo.id },
        card: { id: card.id },
        chef: chef.id,
        extra: { oven: 180 },
        handle: 'gratin-dauphinois',
        source: 'https://example.com/gratin',
      });
      expect(JSON.stringify(item.data.method)).toContain('Bake for an hour.');
    } finally {
      await context.close();
    }
  });

  it('gives a field a default, shows it when the field is edited, and refuses one out of its rules at its input', { timeout: 90_000 }, async () => {
    await createCollection(panel.t, 'dishes', []);
    const defaultOf = async (slug: string) => {
      const { fields } = (await panel.t.request('GET', `${api}/schema/collections/dishes?includeFields=true`, { token: panel.t.adminToken })).body.data.item as { fields: Field[] };
      return fields.find((field) => field.slug === slug)?.defaultValue;
    };
    const { context, page } = await signedInPage(panel.browser, panel.server, panel.t.admin.id);
    try {
      await page.goto(panel.server.url('/schema/dishes'));
      const addField = page.getByRole('region', { name: 'Add a field' });
      const added = (label: string) => eventually(() => page.getByRole('status').first().textContent()).toBe(`The field ${label} is added.`);

      await addField.getByLabel('Label', { exact: true }).fill('Servings');
      await addField.getByLabel('Type').selectOption({ label: 'Whole number' });
      await addField.getByLabel('Smallest value').fill('1');
      await addField.getByLabel('Largest value').fill('12');
      await addField.getByLabel('Default value').fill('20');
      await addField.getByRole('button', { name: 'Add the field' }).click();
      await eventually(() => describedBy(addField.getByLabel('Default value'))).toContain('Must be at most 12');
      expect(await fieldsOf('dishes')).toEqual([]);
      await addField.getByLabel('Default value').fill('4');
      await addField.getByRole('button', { name: 'Add the field' }).click();
      await added('Servings');
      expect(await defaultOf('servings')).toBe(4);

      // A choice's default is one of the choices typed above it.
      await addField.getByLabel('Label', { exact: true }).fill('Course');
      await addField.getByLabel('Type').selectOption({ label: 'One choice' });
      await addField.getByLabel('Choices').fill('Starter\nMain');
      await addField.getByLabel('Default value').selectOption('Main');
      await addField.getByRole('button', { name: 'Add the field' }).click();
      await added('Course');
      expect(await defaultOf('course')).toBe('Main');

      await page.getByRole('grid', { name: 'Fields of dishes' }).getByRole('button', { name: 'Edit Servings' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit the field Servings' });
      expect(await dialog.getByLabel('Default value').inputValue()).toBe('4');
      await dialog.getByLabel('Default value').fill('');
      await dialog.getByRole('button', { name: 'Save the field' }).click();
      await eventually(() => page.getByRole('status').first().textContent()).toBe('The field Servings is saved.');
      expect(await defaultOf('servings')).toBeUndefined();
      await expectAccessible(page, 'schema of a collection with defaults');
    } finally {
      await context.close();
    }
  });

  it('offers an Editor no schema builder, and says so at its address', { timeout: 60_000 }, async () => {
    await expectAdminsOnly(panel.browser, panel.server, { path: '/schema', link: 'Schema', says: 'Only administrators change the schema', action: 'Create the collection' });
  });
});
