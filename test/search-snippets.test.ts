import { describe, expect, it } from 'vitest';
import { parseSearchQuery } from '../src/search/query.ts';
import { makeSnippet, SnippetMaker } from '../src/search/snippets.ts';
import { loadStemmer } from '../src/search/stemmers.ts';
import { snippetHtml } from '../src/search/text.ts';

/** Snippets (decisions/0020): which words are marked, which passage and which field are shown; engine-free. */
describe('search snippets', () => {
  async function snippet(q: string, title: string, body: string, language: string | null = 'english'): Promise<string> {
    const maker = new SnippetMaker(parseSearchQuery(q), await loadStemmer(language ?? undefined), language ?? undefined);
    return snippetHtml(makeSnippet(maker, title, body));
  }

  const words = (from: number, count: number) => Array.from({ length: count }, (_, index) => `w${from + index}`).join(' ');

  it('marks the words the stemmer matches, in any case and with diacritics', async () => {
    expect(await snippet('runs', 'T', 'Running between cafés all day.')).toBe('<mark>Running</mark> between cafés all day.');
    expect(await snippet('zurich cafe', 'Café culture in Zürich', 'Nothing here.')).toBe('<mark>Café</mark> culture in <mark>Zürich</mark>');
    expect(await snippet('ZÜRICH', 'T', 'Trains to ZURICH and zürich.')).toBe('Trains to <mark>ZURICH</mark> and <mark>zürich</mark>.');
  });

  it('marks whole words only, phrases as one run, prefixes by their start', async () => {
    expect(await snippet('scar', 'T', 'Oscar has a scar.')).toBe('Oscar has a <mark>scar</mark>.');
    expect(await snippet('"water and patience"', 'T', 'Water first; then water and patience.')).toBe('Water first; then <mark>water and patience</mark>.');
    expect(await snippet('garden*', 'T', 'Gardening in gardens, not in guards.')).toBe('<mark>Gardening</mark> in <mark>gardens</mark>, not in guards.');
  });

  it('shows the passage with the most distinct terms, cut with … where text goes on', async () => {
    const body = `${words(0, 50)} apple ${words(50, 50)} apple pear ${words(100, 50)}`;
    const result = await snippet('apple pear', 'T', body);
    // The second apple stands beside the pear: that passage, with four words before it.
    expect(result).toBe(`…w96 w97 w98 w99 <mark>apple</mark> <mark>pear</mark> ${words(100, 18)}…`);
    // Near the end of the text the passage starts earlier, to show as many words.
    expect(await snippet('pear', 'T', `${words(0, 40)} pear w40`)).toBe(`…${words(18, 22)} <mark>pear</mark> w40`);
  });

  it('takes the field with more of the terms, the body on a tie, and the start of the body when nothing matched', async () => {
    expect(await snippet('apple pear', 'Apple tart', 'An apple and a pear.')).toBe('An <mark>apple</mark> and a <mark>pear</mark>.');
    expect(await snippet('apple pear', 'Apple and pear', 'Only the apple.')).toBe('<mark>Apple</mark> and <mark>pear</mark>');
    expect(await snippet('apple', 'Apple tart', 'The apple.')).toBe('The <mark>apple</mark>.');
    expect(await snippet('tart', 'Apple tart', 'The apple.')).toBe('Apple <mark>tart</mark>');
    expect(await snippet('missing', 'Title', `${words(0, 30)}`)).toBe(`${words(0, 24)}…`);
  });

  it('compares words whole where the index does not stem, and stems other languages as PostgreSQL does', async () => {
    expect(await snippet('cafes', 'T', 'Des cafés et un café.', null)).toBe('Des <mark>cafés</mark> et un café.');
    expect(await snippet('chevaux', 'T', 'Un cheval, deux chevaux.', 'french')).toBe('Un <mark>cheval</mark>, deux <mark>chevaux</mark>.');
    expect(await snippet('Bücher', 'T', 'Ein Buch, zwei Bücher.', 'german')).toContain('<mark>Bücher</mark>');
  });

  it('never marks text that only looks like a mark, and keeps markup escaped', async () => {
    expect(await snippet('quoted', 'T', 'Between <b>all</b> day & night "quoted".')).toBe('Between &lt;b&gt;all&lt;/b&gt; day &amp; night &quot;<mark>quoted</mark>&quot;.');
  });
});
