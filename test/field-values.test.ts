import { describe, expect, it } from 'vitest';
import { referencesToCheck, validateEntryData } from '../src/content/field-values.ts';
import { columnKind, fromColumnValue, toColumnValue } from '../src/fields/columns.ts';
import { patternMaxSteps, patternValueMaxLength } from '../src/fields/patterns.ts';
import { normalizeDateTime } from '../src/fields/types/datetime.ts';
import { checkFieldValue, defaultValueFor } from '../src/fields/values.ts';
import { fieldDefinitionIssues, patternMaxLength, typeChangeProblem } from '../src/schema/field-rules.ts';
import type { FieldValidation } from '../src/fields/definition.ts';
import { fieldTypes, type FieldType } from '../src/fields/names.ts';
import { fieldDefinition } from './support/fields.ts';

const ulid = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

const field = fieldDefinition;

function check(type: FieldType, value: unknown, validation: FieldValidation = {}) {
  return checkFieldValue({ type, validation }, value);
}

const selectOptions = { options: ['draft', 'final'] };
const tagOptions = { options: ['a', 'b', 'c'] };

/** A valid value of each type as given, and as it is stored and returned. */
const goodValues: [FieldType, unknown, unknown, FieldValidation?][] = [
  ['string', 'Hello\nworld', 'Hello\nworld'],
  ['string', '', ''],
  ['text', 'Long\n\ntext ✓', 'Long\n\ntext ✓'],
  ['number', 1.5, 1.5],
  ['number', -20, -20],
  ['integer', 42, 42],
  ['integer', -9007199254740991, -9007199254740991],
  ['boolean', true, true],
  ['boolean', false, false],
  ['datetime', '2026-01-31T09:30:00Z', '2026-01-31T09:30:00.000Z'],
  ['datetime', '2026-01-31T10:30:00.123456+01:00', '2026-01-31T09:30:00.123Z'],
  ['datetime', '2026-01-31t09:30z', '2026-01-31T09:30:00.000Z'],
  ['datetime', '2026-01-31', '2026-01-31T00:00:00.000Z'],
  ['datetime', '2024-02-29T23:00:00-02:30', '2024-03-01T01:30:00.000Z'],
  ['datetime', '0050-06-01', '0050-06-01T00:00:00.000Z'],
  ['select', 'final', 'final', selectOptions],
  ['multiSelect', ['c', 'a'], ['c', 'a'], tagOptions],
  ['multiSelect', [], [], tagOptions],
  ['image', ulid, { id: ulid }],
  ['image', 'https://cdn.example.com/a.png?w=10', { url: 'https://cdn.example.com/a.png?w=10' }],
  ['image', { id: ulid, url: '/media/file/k.png', alt: 'A cat' }, { id: ulid, url: '/media/file/k.png', alt: 'A cat' }],
  ['image', { url: 'http://example.com/b.jpg', alt: null }, { url: 'http://example.com/b.jpg' }],
  ['image', { url: 'http://example.com/c.jpg', alt: 'A dog', caption: 'At the beach' }, { url: 'http://example.com/c.jpg', alt: 'A dog', caption: 'At the beach' }],
  ['file', '/media/file/report.pdf', { url: '/media/file/report.pdf' }],
  ['reference', ulid, ulid],
  ['json', { nested: [1, 'two', null, { three: false }] }, { nested: [1, 'two', null, { three: false }] }],
  ['json', 'just text', 'just text'],
  ['json', 0, 0],
  ['slug', 'my-page-2', 'my-page-2'],
  ['slug', 'a'.repeat(200), 'a'.repeat(200)],
  ['url', 'https://example.com/a?b=c#d', 'https://example.com/a?b=c#d'],
  ['url', ' HTTP://Example.com:80 ', 'http://example.com/'],
  ['url', 'https://例え.jp/ü', 'https://xn--r8jz45g.jp/%C3%BC'],
  ['url', 'mailto:someone@example.com', 'mailto:someone@example.com'],
  ['url', 'tel:+44-20-7946-0000', 'tel:+44-20-7946-0000'],
];

const badValues: [FieldType, unknown, string, FieldValidation?][] = [
  ['string', 42, 'Must be a string'],
  ['text', ['a'], 'Must be a string'],
  ['number', '1.5', 'Must be a finite number'],
  ['number', Number.NaN, 'Must be a finite number'],
  ['number', Number.POSITIVE_INFINITY, 'Must be a finite number'],
  ['integer', 1.5, 'Must be a whole number'],
  ['integer', 2 ** 53, 'Must be a whole number'],
  ['integer', '3', 'Must be a whole number'],
  ['boolean', 'true', 'Must be true or false'],
  ['boolean', 1, 'Must be true or false'],
  ['datetime', '2026-02-30', 'Must be an ISO 8601 date-time'],
  ['datetime', '2026-13-01T00:00:00Z', 'Must be an ISO 8601 date-time'],
  ['datetime', '2026-01-31T24:00:00Z', 'Must be an ISO 8601 date-time'],
  ['datetime', '2026-01-31T09:30:00', 'Must be an ISO 8601 date-time'],
  ['datetime', '2026-01-31T09:30:00+25:00', 'Must be an ISO 8601 date-time'],
  ['datetime', '9999-12-31T23:30:00-01:00', 'Must be an ISO 8601 date-time'],
  ['datetime', 'yesterday', 'Must be an ISO 8601 date-time'],
  ['datetime', 1_767_225_600_000, 'Must be an ISO 8601 date-time'],
  ['select', 'Final', 'Must be one of: "draft", "final"', selectOptions],
  ['select', 1, 'Must be one of', selectOptions],
  ['multiSelect', 'a', 'Must be a list of options', tagOptions],
  ['multiSelect', ['a', 'd'], '"d" is not an option', tagOptions],
  ['multiSelect', [1], '1 is not an option', tagOptions],
  ['multiSelect', ['a', 'a'], 'Must not repeat an option', tagOptions],
  ['portableText', 42, 'Must be Portable Text'],
  ['portableText', { _type: 'block' }, 'Must be Portable Text'],
  ['portableText', [{ _type: 'block', children: 'x' }], '0.children: Must be an array of spans'],
  ['image', 'javascript:alert(1)', 'Must be a media id'],
  ['image', '//evil.example.com/x.png', 'Must be a media id'],
  ['image', 'https://example.com/a b.png', 'Must be a media id'],
  ['image', '', 'Must be a media id'],
  ['image', { alt: 'no target' }, 'Must be a media id'],
  ['image', { id: 'nope' }, 'id must be a media id'],
  ['image', { url: 'data:image/png;base64,AAAA' }, 'url must be an http(s) URL'],
  ['image', { id: ulid, alt: 5 }, 'alt must be a string'],
  ['image', { id: ulid, caption: 5 }, 'caption must be a string'],
  ['image', { id: ulid, title: 'x' }, 'Unknown key "title"'],
  ['file', 5, 'Must be a media id'],
  ['reference', ulid.toLowerCase(), 'Must be an entry id'],
  ['reference', 'abc', 'Must be an entry id'],
  ['json', { a: Number.NaN }, 'Numbers must be finite'],
  ['json', { a: undefined }, 'Must be a JSON value'],
  ['json', new Date(0), 'Must be a JSON value'],
  ['slug', 'My-Page', 'Must be lower-case letters and digits'],
  ['slug', 'a--b', 'Must be lower-case letters and digits'],
  ['slug', '-a', 'Must be lower-case letters and digits'],
  ['slug', 'ünï', 'Must be lower-case letters and digits'],
  ['slug', 'a'.repeat(201), 'Must be at most 200 characters'],
  ['url', 'javascript:alert(1)', 'Must be an absolute URL'],
  ['url', 'ftp://example.com/file', 'Must be an absolute URL'],
  ['url', '//example.com/path', 'Must be an absolute URL'],
  ['url', 'tel:', 'Must be an absolute URL'],
  ['url', 'https://example.com/\nmore', 'Must not contain spaces or line breaks'],
  ['url', `https://example.com/${'é'.repeat(700)}`, 'Must be at most 2048 characters'],
  ['url', ['https://example.com/'], 'Must be a string'],
];

describe('checkFieldValue', () => {
  it('covers every field type with good and bad values', () => {
    const covered = new Set([...goodValues, ...badValues].map(([type]) => type));
    expect([...covered].sort()).toEqual([...fieldTypes].sort());
  });

  it.each(goodValues)('accepts a %s value %j', (type, value, stored, validation) => {
    expect(check(type, value, validation)).toEqual({ ok: true, value: stored });
  });

  it.each(badValues)('refuses a %s value %j', (type, value, message, validation) => {
    const result = check(type, value, validation);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(message);
  });

  it('converts Markdown to Portable Text and checks given blocks', () => {
    const result = check('portableText', '# Title\n\nSome **bold** text');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const blocks = result.value as { _type: string; style: string; children: { text: string; marks: string[] }[] }[];
    expect(blocks.map((block) => [block._type, block.style])).toEqual([['block', 'h1'], ['block', 'normal']]);
    expect(blocks[1]?.children.map((child) => [child.text, child.marks])).toEqual([['Some ', []], ['bold', ['strong']], [' text', []]]);
    const given = check('portableText', [{ _type: 'block', children: [{ _type: 'span', text: 'Hi' }] }]);
    expect(given.ok).toBe(true);
  });

  it('counts string length in characters and applies the author\'s pattern as written', () => {
    expect(check('string', 'a', { minLength: 2 })).toEqual({ ok: false, message: 'Must be at least 2 characters' });
    expect(check('string', 'abcdef', { maxLength: 5 })).toEqual({ ok: false, message: 'Must be at most 5 characters' });
    expect(check('string', '😀😀😀', { maxLength: 3 }).ok).toBe(true);
    expect(check('text', '😀😀😀😀', { maxLength: 3 }).ok).toBe(false);
    expect(check('string', 'Abc', { pattern: '^[A-Z]' }).ok).toBe(true);
    expect(check('string', 'abc', { pattern: '^[A-Z]' })).toEqual({ ok: false, message: 'Must match the pattern ^[A-Z]' });
    // Not anchored for the author: a match anywhere passes.
    expect(check('string', 'ax1b', { pattern: 'x[0-9]' }).ok).toBe(true);
    expect(check('slug', 'abc-1', { pattern: '-[0-9]$', maxLength: 4 })).toEqual({ ok: false, message: 'Must be at most 4 characters' });
  });

  it('applies min and max to numbers and to the count of chosen options', () => {
    expect(check('number', -0.5, { min: 0 })).toEqual({ ok: false, message: 'Must be at least 0' });
    expect(check('integer', 11, { min: 0, max: 10 })).toEqual({ ok: false, message: 'Must be at most 10' });
    expect(check('integer', 10, { min: 0, max: 10 }).ok).toBe(true);
    const tags = { ...tagOptions, min: 1, max: 2 };
    expect(check('multiSelect', [], tags)).toEqual({ ok: false, message: 'Must have at least 1 options chosen' });
    expect(check('multiSelect', ['a', 'b', 'c'], tags)).toEqual({ ok: false, message: 'Must have at most 2 options chosen' });
  });

  it('refuses JSON nested beyond 100 levels', () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < 150; level++) deep = [deep];
    expect(check('json', deep)).toEqual({ ok: false, message: 'Must not nest deeper than 100 levels' });
  });

  it('normalizes date-times to UTC with milliseconds', () => {
    expect(normalizeDateTime('2026-06-01T00:00:00.5-00:30')).toBe('2026-06-01T00:30:00.500Z');
    expect(normalizeDateTime('2025-02-29')).toBeUndefined();
    expect(normalizeDateTime('0000-01-01T00:30:00+01:00')).toBeUndefined();
  });
});

describe('validateEntryData', () => {
  const fields = [
    field('title', 'string', { required: true, validation: { maxLength: 10 } }),
    field('views', 'integer', { defaultValue: 0 }),
    field('status_note', 'text'),
    field('tags', 'multiSelect', { required: true, validation: tagOptions, defaultValue: ['a'] }),
    field('meta', 'json', { defaultValue: { seen: [] } }),
    field('body', 'portableText', { required: true }),
  ];

  it('fills defaults and nulls on create, with every field in values', () => {
    const result = validateEntryData(fields, { title: 'Hi', body: 'Text' }, 'create');
    expect(result.issues).toEqual([]);
    expect(Object.keys(result.values).sort()).toEqual(['body', 'meta', 'status_note', 'tags', 'title', 'views']);
    expect(result.values).toMatchObject({ title: 'Hi', views: 0, status_note: null, tags: ['a'], meta: { seen: [] } });
  });

  it('copies object defaults instead of sharing them', () => {
    const result = validateEntryData(fields, { title: 'Hi', body: 'Text' }, 'create');
    (result.values.meta as { seen: string[] }).seen.push('x');
    expect(fields[4]?.defaultValue).toEqual({ seen: [] });
  });

  it('reports every problem at once, one issue per field, unknown fields included', () => {
    const result = validateEntryData(fields, { title: 'Far too long a title', views: 'many', tags: [], typo: 1, other: null }, 'create');
    expect(result.issues).toEqual([
      { path: 'data.title', message: 'Must be at most 10 characters' },
      { path: 'data.views', message: 'Must be a whole number within ±9007199254740991' },
      { path: 'data.tags', message: 'Required' },
      { path: 'data.body', message: 'Required' },
      { path: 'data.typo', message: 'Unknown field' },
      { path: 'data.other', message: 'Unknown field' },
    ]);
  });

  it('treats null, empty text, empty lists and blank Markdown as missing for required fields', () => {
    const result = validateEntryData(fields, { title: '', tags: null, body: '   \n' }, 'create');
    expect(result.issues.map((issue) => [issue.path, issue.message])).toEqual([
      ['data.title', 'Required'],
      ['data.tags', 'Required'],
      ['data.body', 'Required'],
    ]);
  });

  it('checks only the given keys on update, lets null clear optional fields, and keeps required ones set', () => {
    expect(validateEntryData(fields, { views: null, status_note: 'note' }, 'update')).toEqual({
      values: { views: null, status_note: 'note' },
      issues: [],
    });
    expect(validateEntryData(fields, { title: null, body: [] }, 'update').issues).toEqual([
      { path: 'data.title', message: 'Required' },
      { path: 'data.body', message: 'Required' },
    ]);
    expect(validateEntryData(fields, {}, 'update')).toEqual({ values: {}, issues: [] });
  });

  it('takes an undefined value as absent, and an empty string as a value for optional text', () => {
    const result = validateEntryData(fields, { title: 'Hi', body: 'x', status_note: '', views: undefined }, 'create');
    expect(result.issues).toEqual([]);
    expect(result.values).toMatchObject({ status_note: '', views: 0 });
    expect(validateEntryData([field('count', 'number')], { count: '' }, 'create').issues).toEqual([{ path: 'data.count', message: 'Must be a finite number' }]);
  });

  it('lists the references the caller must look up', () => {
    const refs = [field('author', 'reference', { options: { collection: 'people' } }), field('editor', 'reference', { options: { collection: 'people' } }), field('title', 'string')];
    const { values } = validateEntryData(refs, { author: ulid, editor: null, title: 'x' }, 'create');
    expect(referencesToCheck(refs, values)).toEqual([{ field: 'author', collection: 'people', id: ulid }]);
  });

  it('normalizes defaults the way entry values are normalized', () => {
    expect(defaultValueFor(field('when', 'datetime', { defaultValue: '2026-01-31' }))).toBe('2026-01-31T00:00:00.000Z');
    expect(defaultValueFor(field('hero', 'image', { defaultValue: ulid }))).toEqual({ id: ulid });
    expect(defaultValueFor(field('when', 'datetime'))).toBeUndefined();
    expect(defaultValueFor(field('views', 'integer', { defaultValue: 'x' }))).toBeUndefined();
  });
});

describe('column storage', () => {
  it.each(goodValues)('round-trips a %s value %j', (type, value, stored, validation) => {
    const definition = field('f', type, { validation: validation ?? {} });
    const result = checkFieldValue(definition, value);
    if (!result.ok) throw new Error(result.message);
    const column = toColumnValue(definition, result.value);
    expect(typeof column).toBe(columnKind(type) === 'text' ? 'string' : 'number');
    expect(fromColumnValue(definition, column)).toEqual(stored);
  });

  it('picks a column kind for every type', () => {
    expect(Object.fromEntries(fieldTypes.map((type) => [type, columnKind(type)]))).toEqual({
      string: 'text',
      text: 'text',
      number: 'real',
      integer: 'integer',
      boolean: 'integer',
      datetime: 'text',
      select: 'text',
      multiSelect: 'text',
      portableText: 'text',
      image: 'text',
      file: 'text',
      reference: 'text',
      json: 'text',
      slug: 'text',
      url: 'text',
    });
  });

  it('stores booleans as 0/1 and JSON as text, and reads what drivers return', () => {
    expect(toColumnValue(field('f', 'boolean'), true)).toBe(1);
    expect(toColumnValue(field('f', 'boolean'), false)).toBe(0);
    expect(toColumnValue(field('f', 'json'), { a: 1 })).toBe('{"a":1}');
    expect(toColumnValue(field('f', 'string'), null)).toBeNull();
    expect(fromColumnValue(field('f', 'integer'), 5n)).toBe(5);
    expect(fromColumnValue(field('f', 'number'), '2.5')).toBe(2.5);
    expect(fromColumnValue(field('f', 'boolean'), 0)).toBe(false);
    expect(fromColumnValue(field('f', 'json'), null)).toBeNull();
    expect(() => toColumnValue(field('f', 'integer'), '5')).toThrow(TypeError);
  });
});

describe('fieldDefinitionIssues', () => {
  it.each([
    ['a plain string', { type: 'string' as const }],
    ['bounded text with a pattern', { type: 'text' as const, validation: { minLength: 1, maxLength: 5, pattern: '^[a-z]+$' }, options: { rows: 4 } }],
    ['a unique select with a default', { type: 'select' as const, validation: selectOptions, unique: true, required: true, defaultValue: 'draft' }],
    ['a counted multiSelect', { type: 'multiSelect' as const, validation: { ...tagOptions, min: 1, max: 2 }, defaultValue: ['a'] }],
    ['a reference', { type: 'reference' as const, options: { collection: 'people' }, unique: true }],
    ['a null default', { type: 'integer' as const, defaultValue: null, validation: { min: 1, max: 1 } }],
    ['a Markdown default', { type: 'portableText' as const, defaultValue: '# Hi' }],
  ])('accepts %s', (_case, definition) => {
    expect(fieldDefinitionIssues(definition)).toEqual([]);
  });

  it.each([
    ['min above max', { type: 'number' as const, validation: { min: 5, max: 1 } }, 'validation.min'],
    ['minLength above maxLength', { type: 'string' as const, validation: { minLength: 5, maxLength: 1 } }, 'validation.minLength'],
    ['a pattern that does not compile', { type: 'string' as const, validation: { pattern: '([a-z' } }, 'validation.pattern'],
    ['a select without options', { type: 'select' as const }, 'validation.options'],
    ['a multiSelect with empty options', { type: 'multiSelect' as const, validation: { options: [] } }, 'validation.options'],
    ['repeated options', { type: 'select' as const, validation: { options: ['a', 'a'] } }, 'validation.options'],
    ['an empty option', { type: 'select' as const, validation: { options: ['a', ''] } }, 'validation.options'],
    ['a fractional multiSelect count', { type: 'multiSelect' as const, validation: { ...tagOptions, min: 1.5 } }, 'validation.min'],
    ['a reference without a collection', { type: 'reference' as const }, 'options.collection'],
    ['a collection on a non-reference', { type: 'string' as const, options: { collection: 'people' } }, 'options.collection'],
    ['rows on a string', { type: 'string' as const, options: { rows: 3 } }, 'options.rows'],
    ['min on a string', { type: 'string' as const, validation: { min: 1 } }, 'validation.min'],
    ['a pattern on a number', { type: 'number' as const, validation: { pattern: 'x' } }, 'validation.pattern'],
    ['options on a string', { type: 'string' as const, validation: { options: ['a'] } }, 'validation.options'],
    ['unique text', { type: 'text' as const, unique: true }, 'unique'],
    ['unique json', { type: 'json' as const, unique: true }, 'unique'],
    ['a default of the wrong type', { type: 'integer' as const, defaultValue: 'one' }, 'defaultValue'],
    ['a default outside the options', { type: 'select' as const, validation: selectOptions, defaultValue: 'other' }, 'defaultValue'],
    ['a default breaking the pattern', { type: 'string' as const, validation: { pattern: '^x' }, defaultValue: 'y' }, 'defaultValue'],
    ['an empty default on a required field', { type: 'string' as const, required: true, defaultValue: '' }, 'defaultValue'],
  ])('refuses %s', (_case, definition, path) => {
    expect(fieldDefinitionIssues(definition).map((issue) => issue.path)).toEqual([path]);
  });

  it('reports every independent problem together', () => {
    const issues = fieldDefinitionIssues({ type: 'text', unique: true, validation: { minLength: 3, maxLength: 2, min: 1 }, options: { collection: 'x' } });
    expect(issues.map((issue) => issue.path).sort()).toEqual(['options.collection', 'unique', 'validation.min', 'validation.minLength']);
    expect(issues.find((issue) => issue.path === 'validation.minLength')?.message).toBe('Must not be greater than validation.maxLength (2)');
  });
});

describe('validation.pattern', () => {
  const patternIssues = (pattern: string) => fieldDefinitionIssues({ type: 'string', validation: { pattern } });
  const unsupported = [{ path: 'validation.pattern', message: expect.stringMatching(/^Is not supported: .*\(patterns use RE2 syntax/) }];

  it.each([
    ['^(?:x)*(?=a+)[a-z]*$'],
    ['(?<!a)b'],
    ['(a)\\1+'],
    ['(?<x>a)\\k<x>'],
    ['([a-z'],
    ['a{2,1}'],
    ['\\u00e9'],
  ])('refuses %s, which RE2 cannot run', (pattern) => {
    expect(patternIssues(pattern)).toEqual(unsupported);
  });

  it.each([
    ['^[a-z]+$'],
    ['^\\d{3}-\\d{4}$'],
    ['^(foo|bar)$'],
    ['^(ab)+$'],
    ['^(\\d{1,3}\\.){3}\\d{1,3}$'],
    ['^\\(a+\\)+$'],
    ['^[(a+)]+$'],
    ['^[\\](+]+$'],
    ['^x{$'],
    ['^(a+)+$'],
    ['^(?:\\w+\\s?)+$'],
    ['(a{1,3}){20}'],
    ['^(a|aa)+$'],
  ])('accepts %s', (pattern) => {
    expect(patternIssues(pattern)).toEqual([]);
  });

  it('refuses patterns that compile to more steps than the limit', () => {
    expect(patternIssues(`^.{0,${patternMaxSteps / 2 - 10}}$`)).toEqual([]);
    expect(patternIssues(`^.{0,${patternMaxSteps}}$`)).toEqual([{ path: 'validation.pattern', message: expect.stringMatching(new RegExp(`^Is too complex: \\d+ steps, at most ${patternMaxSteps} `)) }]);
  });

  it('refuses patterns longer than the limit', () => {
    const longest = '[a-z]'.repeat(patternMaxLength / 5);
    expect(patternIssues(longest)).toEqual([]);
    expect(patternIssues(`${longest}a`)).toEqual([{ path: 'validation.pattern', message: `Must be at most ${patternMaxLength} characters` }]);
  });

  it('still applies an accepted pattern, to values up to a length', () => {
    const validation = { pattern: '^(ab)+$' };
    expect(check('string', 'abab', validation).ok).toBe(true);
    expect(check('string', 'aba', validation)).toEqual({ ok: false, message: 'Must match the pattern ^(ab)+$' });
    expect(check('text', 'ab'.repeat(patternValueMaxLength / 2), validation).ok).toBe(true);
    expect(check('text', 'ab'.repeat(patternValueMaxLength / 2 + 1), validation)).toEqual({
      ok: false,
      message: `Must be at most ${patternValueMaxLength} characters to be checked against the pattern`,
    });
  });
});

describe('typeChangeProblem', () => {
  const allowed: [FieldType, FieldType][] = [
    ['string', 'text'],
    ['text', 'string'],
    ['slug', 'string'],
    ['slug', 'text'],
    ['select', 'string'],
    ['select', 'text'],
    ['datetime', 'string'],
    ['datetime', 'text'],
    ['reference', 'string'],
    ['reference', 'text'],
    ['integer', 'number'],
    ['image', 'file'],
    ['file', 'image'],
    ['image', 'json'],
    ['file', 'json'],
    ['multiSelect', 'json'],
    ['portableText', 'json'],
    ['url', 'text'],
  ];
  const isAllowed = (from: FieldType, to: FieldType) => from === to || allowed.some(([a, b]) => a === from && b === to);

  it('allows exactly the listed changes and keeping the type', () => {
    for (const from of fieldTypes) {
      for (const to of fieldTypes) expect(typeChangeProblem(from, to) === undefined, `${from} → ${to}`).toBe(isAllowed(from, to));
    }
  });

  it('keeps every stored value readable and valid under each allowed change', () => {
    for (const [from, to] of allowed) {
      for (const [type, value, , validation] of goodValues.filter(([type]) => type === from)) {
        const source = field('f', type, { validation: validation ?? {} });
        const checked = checkFieldValue(source, value);
        if (!checked.ok) throw new Error(checked.message);
        const read = fromColumnValue(field('f', to), toColumnValue(source, checked.value));
        expect(read).toEqual(checked.value);
        expect(checkFieldValue(field('f', to), read), `${from} → ${to}: ${JSON.stringify(value)}`).toEqual({ ok: true, value: read });
      }
    }
  });

  it('names the reason, the column change and what is allowed instead', () => {
    expect(typeChangeProblem('string', 'slug')).toBe(
      'Cannot change a field from string to slug: slug fields hold lower-case URL slugs, which stored string values are not guaranteed to be. Allowed changes from string: text',
    );
    expect(typeChangeProblem('number', 'string')).toContain('the column would change from real to text');
    expect(typeChangeProblem('number', 'integer')).toContain('integer fields hold whole numbers');
    expect(typeChangeProblem('boolean', 'integer')).toContain('Allowed changes from boolean: none');
  });
});
