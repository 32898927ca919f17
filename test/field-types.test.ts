import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, expectSuccess, issuePaths, type TestApp } from './support/harness.ts';

const api = '/_cms/api';
const fieldTypesPath = `${api}/schema/field-types`;

interface FieldTypeItem {
  type: string;
  widget: string;
  validation: string[];
  options: string[];
  unique: boolean;
  sortable: boolean;
  searchable: boolean;
  changesTo: string[];
}

describe('GET /schema/field-types', () => {
  let t: TestApp;
  let items: FieldTypeItem[];
  beforeAll(async () => {
    t = await createTestApp();
    items = expectSuccess(await t.request('GET', fieldTypesPath, { token: t.adminToken })).items;
  });
  afterAll(() => t.close());

  it('lists every type a field may have, in the order the OpenAPI document gives them', async () => {
    const document = (await t.request('GET', `${api}/openapi.json`)).body;
    const accepted = document.components.schemas.Field.properties.type.enum;
    expect(items.map((item) => item.type)).toEqual(accepted);
    expect(document.components.schemas.FieldType.properties.type.enum).toEqual(accepted);
    expect(document.paths[fieldTypesPath].get['x-required-scope']).toBe('schema:read');
  });

  it('describes each type: its widget, the rules it accepts and what it allows', () => {
    const byType = new Map(items.map((item) => [item.type, item]));
    expect(byType.get('string')).toEqual({
      type: 'string',
      widget: 'text-input',
      validation: ['minLength', 'maxLength', 'pattern'],
      options: [],
      unique: true,
      sortable: true,
      searchable: true,
      changesTo: ['text'],
    });
    expect(byType.get('text')).toMatchObject({ widget: 'textarea', options: ['rows'], unique: false, sortable: false });
    expect(byType.get('multiSelect')).toMatchObject({ widget: 'multi-select', validation: ['options', 'min', 'max'], searchable: true, changesTo: ['json'] });
    expect(byType.get('portableText')).toMatchObject({ widget: 'rich-text', searchable: true });
    expect(byType.get('reference')).toMatchObject({ widget: 'entry-picker', options: ['collection'], unique: true, sortable: false, searchable: false });
    expect(byType.get('image')).toMatchObject({ widget: 'image-picker', changesTo: ['file', 'json'] });
    expect(byType.get('boolean')).toMatchObject({ widget: 'checkbox', validation: [], unique: false, sortable: true, searchable: false });
    for (const item of items) expect(item.widget, item.type).toMatch(/^[a-z]+(-[a-z]+)*$/);
  });

  it('agrees with the endpoints: unique is refused where a type does not allow it, orderBy where a type is not sortable', async () => {
    for (const slug of ['target', 'things']) {
      expect((await t.request('POST', `${api}/schema/collections`, { token: t.adminToken, body: { slug, label: slug } })).status).toBe(201);
    }
    for (const item of items) {
      const definition = {
        label: item.type,
        type: item.type,
        validation: item.validation.includes('options') ? { options: ['a', 'b'] } : undefined,
        options: item.options.includes('collection') ? { collection: 'target' } : undefined,
      };
      const path = `${api}/schema/collections/things/fields`;
      const asUnique = await t.request('POST', path, { token: t.adminToken, body: { ...definition, slug: `u_${item.type.toLowerCase()}`, unique: true } });
      if (item.unique) expect(asUnique.status, item.type).toBe(201);
      else expect(issuePaths(asUnique), item.type).toEqual(['unique']);

      const slug = `f_${item.type.toLowerCase()}`;
      expect((await t.request('POST', path, { token: t.adminToken, body: { ...definition, slug } })).status, item.type).toBe(201);
      const ordered = await t.request('GET', `${api}/content/things?orderBy=${slug}`, { token: t.adminToken });
      if (item.sortable) expectSuccess(ordered);
      else expect(issuePaths(ordered), item.type).toEqual(['orderBy']);
    }
  });

  it('answers 401 without a token or with a bad one', async () => {
    expectError(await t.request('GET', fieldTypesPath), 401, 'UNAUTHORIZED');
    expectError(await t.request('GET', fieldTypesPath, { token: 'not-a-real-token' }), 401, 'UNAUTHORIZED');
  });

  it('needs schema:read: refused (403) to a token without it, given to an Editor with it', async () => {
    const author = await t.userWithToken(30, ['content:read', 'content:write']);
    expect(expectError(await t.request('GET', fieldTypesPath, { token: author.token }), 403, 'FORBIDDEN').details).toEqual({ requiredScope: 'schema:read' });
    const editor = await t.userWithToken(40, ['schema:read']);
    expect(expectSuccess(await t.request('GET', fieldTypesPath, { token: editor.token })).items).toEqual(items);
  });
});
