import { describe, expect, it } from 'vitest';
import { checkFieldValue } from '../src/fields/values.ts';
import { schemaToTypeScript } from '../src/schema/typescript.ts';
import type { FieldDefinition } from '../src/fields/definition.ts';
import type { FieldType } from '../src/fields/names.ts';
import type { CollectionSchema } from '../src/schema/types.ts';
import { fieldDefinition } from './support/fields.ts';
import { typeScriptDiagnostics } from './support/typescript.ts';

const stamp = '2026-01-01T00:00:00.000Z';

function field(slug: string, type: FieldType, label: string, extra: Partial<FieldDefinition> = {}): FieldDefinition {
  return fieldDefinition(slug, type, { label, ...extra });
}

function collection(slug: string, labelSingular: string | undefined, fields: FieldDefinition[], description?: string): CollectionSchema {
  return { id: `C_${slug}`, slug, label: `${labelSingular ?? slug} list */`, labelSingular, description, supports: ['drafts'], createdAt: stamp, updatedAt: stamp, fields };
}

const awkwardOptions = ['draft', 'it\'s "quoted"', '*/ closes', 'back\\slash', 'ünïcödé ✓', '${x}', 'line\nbreak'];

/** Every field type once, with labels that try to break out of their comments. */
const allTypes = collection(
  'article',
  'Article */',
  [
    field('title', 'string', 'Title */ } oops /*', { required: true }),
    field('body_text', 'text', 'Body\n"text"'),
    field('rating', 'number', 'Rating ★'),
    field('views', 'integer', '2024 views', { required: true }),
    field('featured', 'boolean', 'Featured?'),
    field('published_on', 'datetime', "Published on (it's UTC)"),
    field('mood', 'select', 'Mood', { required: true, validation: { options: awkwardOptions } }),
    field('tags', 'multiSelect', 'Tags', { validation: { options: ['a', 'b "c"'] } }),
    field('content', 'portableText', 'Content */'),
    field('hero', 'image', 'Hero image'),
    field('attachment', 'file', 'Attachment'),
    field('author', 'reference', 'Author', { options: { collection: 'person' } }),
    field('extra', 'json', 'Extra'),
    field('permalink', 'slug', 'Permalink'),
    field('class', 'string', 'A reserved word as a property'),
  ],
  'Long-form */ pieces',
);

const schema: CollectionSchema[] = [
  allTypes,
  collection('person', 'Person', [field('name', 'string', 'Name', { required: true })]),
  // Names that collide: with each other, with the declarations every output has, and with *Data.
  collection('person_copy', 'Person', [field('name', 'string', 'Name')]),
  collection('collections', 'Collections', []),
  collection('media_reference', 'Media reference', []),
  collection('person_data', 'Person data', []),
  // Names that cannot be identifiers as they are: digits first, no ASCII letters, accents.
  collection('report', '2024 report', []),
  collection('wenzhang', '文章', []),
  collection('cafe', 'Café crème', []),
  collection('untitled', undefined, []),
];

const diagnosticsOf = typeScriptDiagnostics;

const generated = schemaToTypeScript(schema);

function exportedNames(source: string): string[] {
  return [...source.matchAll(/^export (?:interface|type) (\w+)/gm)].map((match) => match[1] as string);
}

describe('schemaToTypeScript', () => {
  it('compiles under strict with no diagnostics', () => {
    expect(diagnosticsOf(generated)).toEqual([]);
  });

  it('gives each collection a unique PascalCase item and data interface and maps slugs to them', () => {
    const names = exportedNames(generated);
    expect(new Set(names).size).toBe(names.length);
    for (const name of ['Article', 'ArticleData', 'Person', 'PersonData', 'Person2', 'Person2Data', 'Collections2', 'MediaReference2', 'PersonData2', 'CafeCreme', 'Report', 'Wenzhang', 'Untitled']) {
      expect(names).toContain(name);
    }
    expect(generated).toContain('export interface Collections {\n  article: Article;\n  person: Person;\n  person_copy: Person2;');
    expect(generated).toContain('  wenzhang: Wenzhang;');
  });

  it('escapes labels in comments and writes option literals as JSON strings', () => {
    expect(generated).toContain('/** Title *\\/ } oops /* */');
    expect(generated).toContain('/** Body "text" */');
    expect(generated).toContain(`mood: ${awkwardOptions.map((option) => JSON.stringify(option)).join(' | ')};`);
    expect(generated).toContain('/** Article *\\/ list *\\/: Long-form *\\/ pieces */');
  });

  it('types each field, optional and nullable unless required', () => {
    for (const line of [
      'title: string;',
      'body_text?: string | null;',
      'rating?: number | null;',
      'views: number;',
      'featured?: boolean | null;',
      'published_on?: string | null;',
      'tags?: ("a" | "b \\"c\\"")[] | null;',
      'content?: PortableTextBlock[] | null;',
      'hero?: MediaReference | null;',
      'attachment?: MediaReference | null;',
      'author?: string | null;',
      'extra?: unknown | null;',
      'permalink?: string | null;',
      'class?: string | null;',
      'type: "article";',
    ]) {
      expect(generated).toContain(`  ${line}`);
    }
  });

  it('accepts a well-formed item, including values exactly as field checks normalize them', () => {
    const normalized = (type: FieldType, value: unknown): string => {
      const check = checkFieldValue({ type, validation: {} }, value);
      if (!check.ok) throw new Error(check.message);
      return JSON.stringify(check.value);
    };
    const content = normalized('portableText', '# Title\n\nSome **bold** [link](https://example.com) and `code`.\n\n- one\n\n```ts\nx\n```\n\n---\n\n![alt](https://example.com/a.png)');
    const snippet = `
const article: Collections['article'] = {
  id: '01ARZ3NDEKTSV4RRFFQ69G5FAV', type: 'article', slug: 'hello', status: 'published', locale: 'en',
  translationGroup: '01ARZ3NDEKTSV4RRFFQ69G5FAV', createdAt: '${stamp}', updatedAt: '${stamp}', publishedAt: '${stamp}', _rev: 'MDE',
  data: {
    title: 'Hello', views: 3, mood: ${JSON.stringify(awkwardOptions[1])}, tags: ['a'], body_text: null,
    content: ${content}, hero: ${normalized('image', '/media/file/a.png')}, extra: { any: ['thing'] },
    attachment: { id: '01ARZ3NDEKTSV4RRFFQ69G5FAV', url: 'https://cms.example.com/a.pdf', width: null, height: null, mimeType: 'application/pdf' },
  },
};
export const checked: Article = article;
// The other shapes a read gives a media value: an image from the library, one deleted since.
export const image: MediaReference = { id: '01ARZ3NDEKTSV4RRFFQ69G5FAV', url: 'https://cms.example.com/a.png', alt: '', width: 4, height: 3, mimeType: 'image/png' };
export const missing: MediaReference = { id: '01ARZ3NDEKTSV4RRFFQ69G5FAV', alt: 'Gone', missing: true };`;
    expect(diagnosticsOf(generated + snippet)).toEqual([]);
  });

  it.each([
    ['a number for a string field', "title: 42, views: 1, mood: 'draft'"],
    ['a value that is not an option', "title: 'x', views: 1, mood: 'other'"],
    ['a missing required field', "title: 'x', mood: 'draft'"],
    ['an unknown field', "title: 'x', views: 1, mood: 'draft', nope: 1"],
    ['a tag outside the options', "title: 'x', views: 1, mood: 'draft', tags: ['z']"],
    ['a missing media item with dimensions', "title: 'x', views: 1, mood: 'draft', hero: { id: 'x', missing: true, width: 4 }"],
    ['a library item without its type', "title: 'x', views: 1, mood: 'draft', hero: { id: 'x', url: 'u', width: 4, height: 3 }"],
  ])('refuses %s', (_case, data) => {
    expect(diagnosticsOf(`${generated}\nexport const wrong: ArticleData = { ${data} };`)).not.toEqual([]);
  });

  it('is valid for an empty schema', () => {
    const empty = schemaToTypeScript([]);
    expect(diagnosticsOf(empty)).toEqual([]);
    expect(empty).toContain('export interface Collections {\n}');
  });
});
