import { describe, expect, it } from 'vitest';
import { renderTsquery } from '../src/db/search-postgres.ts';
import { renderFts5Query } from '../src/db/search-sqlite.ts';
import { maxQueryTerms, parseSearchQuery } from '../src/search/query.ts';
import { snippetHtml, suggestionPrefix, titleKeys } from '../src/search/text.ts';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';

const word = (...words: string[]) => ({ words, prefix: false });
const prefix = (...words: string[]) => ({ words, prefix: true });

/** The query language (issue 11) parsed to terms, and the text helpers; engine-free. */
describe('search query language', () => {
  it('reads words, phrases, prefixes, exclusions and OR', () => {
    expect(parseSearchQuery('red apple')).toEqual({ groups: [[word('red')], [word('apple')]], excluded: [] });
    expect(parseSearchQuery('"red apple" pie*')).toEqual({ groups: [[word('red', 'apple')], [prefix('pie')]], excluded: [] });
    expect(parseSearchQuery('apple -pie -"sour cream"')).toEqual({ groups: [[word('apple')]], excluded: [word('pie'), word('sour', 'cream')] });
    expect(parseSearchQuery('red OR green apple')).toEqual({ groups: [[word('red'), word('green')], [word('apple')]], excluded: [] });
    expect(parseSearchQuery('a OR b OR c')).toEqual({ groups: [[word('a'), word('b'), word('c')]], excluded: [] });
  });

  it('takes everything else as text', () => {
    expect(parseSearchQuery('OR')).toEqual({ groups: [[word('OR')]], excluded: [] });
    expect(parseSearchQuery('apple OR')).toEqual({ groups: [[word('apple')], [word('OR')]], excluded: [] });
    expect(parseSearchQuery('title:x NEAR(a b) AND')).toEqual({ groups: [[word('title', 'x')], [word('NEAR', 'a')], [word('b')], [word('AND')]], excluded: [] });
    expect(parseSearchQuery('"unbalanced quote')).toEqual({ groups: [[word('unbalanced', 'quote')]], excluded: [] });
    expect(parseSearchQuery("'; drop table x; --")).toEqual({ groups: [[word('drop')], [word('table')], [word('x')]], excluded: [] });
    for (const nothing of ['*', '-', '(', ')', '""', '😀', '\u0000', '- * ( "']) expect(parseSearchQuery(nothing)).toEqual({ groups: [], excluded: [] });
    expect(parseSearchQuery('-only')).toEqual({ groups: [], excluded: [word('only')] });
  });

  it('keeps letters with their combining marks, in composed form, and any script', () => {
    expect(parseSearchQuery('cafe\u0301 שלום 東京')).toEqual({ groups: [[word('café')], [word('שלום')], [word('東京')]], excluded: [] });
  });

  it('uses the first terms of a long query only', () => {
    const query = parseSearchQuery('word '.repeat(2000));
    expect(query.groups).toHaveLength(maxQueryTerms);
  });

  it('renders terms quoted for FTS5 and through functions for PostgreSQL', () => {
    const query = parseSearchQuery('red OR "green tea" pie* -sour');
    expect(renderFts5Query(query)).toBe('(("red" OR "green tea") AND ("pie"*)) NOT ("sour")');
    const postgres = new Kysely<unknown>({
      dialect: { createAdapter: () => new PostgresAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (db) => new PostgresIntrospector(db), createQueryCompiler: () => new PostgresQueryCompiler() },
    });
    const compiled = sql`select ${renderTsquery(parseSearchQuery("it's OR \"a:b\" pie* -sour"), sql`cfg`)}`.compile(postgres);
    // User text only ever in parameters, and only to functions that read no operators (to_tsquery gets letters and `:*`).
    expect(compiled.sql).toBe('select (((phraseto_tsquery(cfg, $1) || phraseto_tsquery(cfg, $2)) && (to_tsquery(cfg, $3))) && !!(plainto_tsquery(cfg, $4)))');
    expect(compiled.parameters).toEqual(['it s', 'a b', 'pie:*', 'sour']);
  });
});

describe('search text helpers', () => {
  it('escapes snippets and keeps marks balanced', () => {
    expect(snippetHtml('a <b> & \u0001term\u0002 "x"')).toBe('a &lt;b&gt; &amp; <mark>term</mark> &quot;x&quot;');
    expect(snippetHtml('\u0001open')).toBe('<mark>open</mark>');
    expect(snippetHtml('stray\u0002 end')).toBe('stray end');
  });

  it('folds titles into keys from each word, and typed text alike', () => {
    expect(titleKeys('Café in Zürich')).toEqual(['cafe in zurich', 'in zurich', 'zurich']);
    expect(suggestionPrefix('  CAFÉ  in ')).toBe('cafe in ');
    expect(suggestionPrefix('!?')).toBe('');
  });
});
