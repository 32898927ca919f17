import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateFieldRow } from '../src/schema/store.ts';
import { api, createCollection, createEntry, expectCreated } from './support/content.ts';
import { createTestApp, expectSuccess, issuePaths, type ApiResponse, type TestApp } from './support/harness.ts';

/**
 * Field `validation.pattern` runs on every saved value, so a value chosen by a Contributor must never
 * make it slow (issue 8 item 2): patterns are matched in linear time, and what the engine cannot
 * express is refused when the field is defined.
 */

/**
 * Far above what these checks take (a few milliseconds; a whole create of a loaded CI machine took
 * 574 ms once), far below what a backtracking engine takes on 33 characters of `([a-z]|[a-z0-9])+`
 * (2^33 paths: minutes).
 */
const quickMs = 2000;

async function timed(work: () => Promise<ApiResponse>): Promise<{ response: ApiResponse; ms: number }> {
  const start = performance.now();
  const response = await work();
  return { response, ms: performance.now() - start };
}

const fieldsPath = (collection: string) => `${api}/schema/collections/${collection}/fields`;

describe('field patterns on values a Contributor chooses', () => {
  let t: TestApp;
  let contributor: string;
  const post = (data: Record<string, unknown>) => timed(() => t.request('POST', `${api}/content/handles`, { token: contributor, body: { data } }));

  beforeAll(async () => {
    t = await createTestApp();
    contributor = (await t.userWithToken(20, ['content:read', 'content:write'])).token;
    await createCollection(t, 'handles', [
      { slug: 'handle', type: 'string', validation: { pattern: '^([a-z]|[a-z0-9])+$' } },
      { slug: 'body', type: 'text', validation: { pattern: 'a*a*b' } },
    ]);
  });
  afterAll(() => t.close());

  it.each([
    ['33 a and a !', `${'a'.repeat(33)}!`],
    ['35 characters', `${'a'.repeat(34)}!`],
  ])('refuses %s against ^([a-z]|[a-z0-9])+$ quickly', async (_name, handle) => {
    const { response, ms } = await post({ handle });
    expect(issuePaths(response)).toEqual(['data.handle']);
    expect(response.body.error.details.issues[0].message).toBe('Must match the pattern ^([a-z]|[a-z0-9])+$');
    expect(ms).toBeLessThan(quickMs);
  });

  it('accepts a matching value of the same length', async () => {
    const { response, ms } = await post({ handle: `${'a'.repeat(33)}9` });
    expect(expectCreated(response).item.data.handle).toBe(`${'a'.repeat(33)}9`);
    expect(ms).toBeLessThan(quickMs);
  });

  it('checks a*a*b over a 3,000-character text quickly, both ways', async () => {
    const refused = await post({ body: 'a'.repeat(3000) });
    expect(issuePaths(refused.response)).toEqual(['data.body']);
    expect(refused.ms).toBeLessThan(quickMs);
    const accepted = await post({ body: `${'a'.repeat(2999)}b` });
    expectCreated(accepted.response);
    expect(accepted.ms).toBeLessThan(quickMs);
  });

  it('accepts ^(a+)+$ as a pattern and checks it quickly', async () => {
    expectCreated(await t.request('POST', fieldsPath('handles'), { token: t.adminToken, body: { slug: 'runs', label: 'Runs', type: 'string', validation: { pattern: '^(a+)+$' } } }));
    const refused = await post({ runs: `${'a'.repeat(400)}!` });
    expect(issuePaths(refused.response)).toEqual(['data.runs']);
    expect(refused.ms).toBeLessThan(quickMs);
    const accepted = await post({ runs: 'a'.repeat(400) });
    expect(expectCreated(accepted.response).item.data.runs).toBe('a'.repeat(400));
    expect(accepted.ms).toBeLessThan(quickMs);
  });
});

describe('which patterns a field may have', () => {
  let t: TestApp;
  const define = (slug: string, pattern: string) =>
    t.request('POST', fieldsPath('patterns'), { token: t.adminToken, body: { slug, label: slug, type: 'string', validation: { pattern } } });
  const patch = (slug: string, pattern: string) => t.request('PATCH', `${fieldsPath('patterns')}/${slug}`, { token: t.adminToken, body: { validation: { pattern } } });
  const save = (data: Record<string, unknown>) => t.request('POST', `${api}/content/patterns`, { token: t.adminToken, body: { data } });

  beforeAll(async () => {
    t = await createTestApp();
    await createCollection(t, 'patterns', [{ slug: 'title', type: 'string' }]);
  });
  afterAll(() => t.close());

  it.each([
    ['a lookahead', '^(?=a)a$'],
    ['a negative lookahead', '^(?!x)'],
    ['a lookbehind', '(?<=a)b'],
    ['a backreference', '^(a)\\1$'],
    ['a named backreference', '^(?<x>a)\\k<x>$'],
    ['one that does not compile', '(['],
    ['a repeat past 1,000', 'a{1001}'],
    ['one too large to check quickly', '(?:\\p{L}|\\p{N}){1000}'],
  ])('refuses %s with 400 naming validation.pattern, when defined and when changed', async (_name, pattern) => {
    const defined = await define('refused', pattern);
    expect(issuePaths(defined)).toEqual(['validation.pattern']);
    expect(defined.body.error.details.issues[0].message).toMatch(/^(Is not supported|Does not compile|Is too complex)/);
    expect(issuePaths(await patch('title', pattern))).toEqual(['validation.pattern']);
    const fields = expectSuccess(await t.request('GET', fieldsPath('patterns'), { token: t.adminToken })).items;
    expect(fields).toEqual([expect.objectContaining({ slug: 'title', validation: {} })]);
  });

  it('keeps the documented semantics: unanchored unless written, case-sensitive, flags inline', async () => {
    expectCreated(await define('code', 'x[0-9]'));
    expectCreated(await define('upper', '^[A-Z]'));
    expectCreated(await define('word', '(?i)^hello$'));
    expectCreated(await define('year', '^(?<year>\\d{4})-\\d{2}$'));
    expectCreated(await define('one', '^.$'));
    const entry = expectCreated(await save({ code: 'ax1b', upper: 'Abc', word: 'HeLLo', year: '2026-01', one: '😀' })).item;
    expect(entry.data).toMatchObject({ code: 'ax1b', upper: 'Abc', word: 'HeLLo', year: '2026-01', one: '😀' });
    for (const data of [{ code: 'ax' }, { upper: 'abc' }, { word: 'hello!' }, { year: '26-01' }, { one: 'ab' }]) {
      expect({ data, paths: issuePaths(await save(data)) }).toEqual({ data, paths: [`data.${Object.keys(data)[0]}`] });
    }
  });

  it('answers a clear 400 for a stored pattern the engine cannot run, and reads and other writes still work', async () => {
    const field = expectCreated(await define('legacy', '^[a-z]+$')).item;
    const entry = expectCreated(await save({ title: 'Kept', legacy: 'abc' })).item;
    // A pattern an earlier version accepted (it compiled as a JavaScript RegExp) but RE2 cannot express.
    await updateFieldRow(t.db, field.id, { validation: JSON.stringify({ pattern: '^(a)\\1$' }), updated_at: new Date().toISOString() });

    const refused = await save({ legacy: 'aa' });
    expect(issuePaths(refused)).toEqual(['data.legacy']);
    expect(refused.body.error.details.issues[0].message).toMatch(/^Cannot be checked: the field's pattern is not supported .*validation\.pattern/);
    expect(expectSuccess(await t.request('GET', `${api}/content/patterns/${entry.id}`, { token: t.adminToken })).item.data.legacy).toBe('abc');
    expect(expectSuccess(await t.request('GET', `${api}/schema`, { token: t.adminToken })).collections).toHaveLength(1);
    expect((await createEntry(t, 'patterns', { data: { title: 'Without it' } })).data.legacy).toBeNull();

    expectSuccess(await patch('legacy', '^[a-z]+$'));
    expect(expectCreated(await save({ legacy: 'aa' })).item.data.legacy).toBe('aa');
  });
});
