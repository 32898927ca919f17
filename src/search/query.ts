import type { SearchQuery, SearchTerm } from '../db/search-types.ts';

/**
 * The query language a person expects (issue 11): words (all must match), "quoted phrases",
 * prefix*, -excluded, OR between words. Anything else is text: a term keeps only its letters,
 * digits and combining marks, as the engines' tokenizers would, so no input reaches an engine's own
 * syntax (column filters, NEAR, parentheses, quotes) and no query can fail.
 */

/** A query uses its first terms only: enough for any person, and a 10 KB query stays cheap. */
export const maxQueryTerms = 32;
/** Longer words are cut: nothing indexable is that long, and PostgreSQL refuses longer lexemes. */
const maxWordLength = 100;

/** A word: a letter or digit, then letters, digits and the combining marks that belong to them. */
const wordPattern = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

type Token = { kind: 'or' } | { kind: 'term'; term: SearchTerm; excluded: boolean };

function termOf(text: string, prefix: boolean): SearchTerm | undefined {
  const words = (text.normalize('NFC').match(wordPattern) ?? []).map((word) => [...word].slice(0, maxWordLength).join(''));
  return words.length === 0 ? undefined : { words, prefix };
}

/** Splits the text into terms and `OR`s; a token with no word in it (`*`, `-`, `(`, an emoji) is dropped. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    if (/\s/u.test(text[at]!)) {
      at += 1;
      continue;
    }
    let excluded = false;
    if (text[at] === '-' && at + 1 < text.length && !/\s/u.test(text[at + 1]!)) {
      excluded = true;
      at += 1;
    }
    let raw: string;
    let prefix = false;
    if (text[at] === '"') {
      // An unbalanced quote runs to the end of the query.
      const close = text.indexOf('"', at + 1);
      const end = close === -1 ? text.length : close;
      raw = text.slice(at + 1, end);
      at = end + 1;
      if (text[at] === '*') {
        prefix = true;
        at += 1;
      }
    } else {
      const end = text.slice(at).search(/\s/u);
      raw = end === -1 ? text.slice(at) : text.slice(at, at + end);
      at += raw.length;
      prefix = raw.endsWith('*');
      if (raw === 'OR' && !excluded) {
        tokens.push({ kind: 'or' });
        continue;
      }
    }
    const term = termOf(raw, prefix);
    if (term) tokens.push({ kind: 'term', term, excluded });
  }
  return tokens;
}

const orAsWord: SearchTerm = { words: ['OR'], prefix: false };

export function parseSearchQuery(text: string): SearchQuery {
  const tokens = tokenize(text);
  const query: SearchQuery = { groups: [], excluded: [] };
  let terms = 0;
  const isRequired = (token: Token | undefined) => token?.kind === 'term' && !token.excluded;
  for (const [index, token] of tokens.entries()) {
    if (terms >= maxQueryTerms) break;
    if (token.kind === 'or') {
      // OR joins the words on either side; anywhere else it is the word "or".
      if (isRequired(tokens[index - 1]) && isRequired(tokens[index + 1])) continue;
      query.groups.push([orAsWord]);
    } else if (token.excluded) {
      query.excluded.push(token.term);
    } else if (tokens[index - 1]?.kind === 'or' && isRequired(tokens[index - 2]) && query.groups.length > 0) {
      query.groups.at(-1)!.push(token.term);
    } else {
      query.groups.push([token.term]);
    }
    terms += 1;
  }
  return query;
}
