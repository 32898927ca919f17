import type { SearchQuery } from '../db/search-types.ts';
import type { Stemmer } from './stemmers.ts';
import { foldWord, snippetMarks } from './text.ts';

/**
 * Snippets, made here rather than by the engines (docs/decisions/0020): FTS5's snippet() and
 * PostgreSQL's ts_headline tokenize the whole field of each result again, which cost most of a
 * search (20 bodies of 300 words: 0.6 ms of SQLite's 0.8 ms, 4.6 ms of PostgreSQL's 5.2 ms). Here one
 * regular expression finds the few words that may match, and only those are folded and stemmed.
 */

/** A snippet shows this many words, as FTS5's did. */
const snippetWords = 24;
/** Words shown before the first match of the passage, for context. */
const contextWords = 4;
/** Passages considered per field: the first matches are enough to pick a good one. */
const maxAnchors = 16;

const wordClass = '\\p{L}\\p{N}\\p{M}';
const wordCharacter = new RegExp(`^[${wordClass}]$`, 'u');
const hasWordCharacter = new RegExp(`[${wordClass}]`, 'u');
const wordCharacterBefore = new RegExp(`[${wordClass}]$`, 'u');
const ascii = /^[\p{ASCII}]*$/u;

/**
 * Whether the text is ASCII, where words are letters and digits and case is all folding does: its
 * UTF-8 is as long as it is. Node counts that in native code, in a tenth of the time the regular
 * expression this replaced took on a body of 300 words (it ran over every body of every page).
 */
function isAscii(text: string): boolean {
  return Buffer.byteLength(text, 'utf8') === text.length;
}

/** An ASCII letter or digit, by its code. */
function isAsciiWordCode(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);
}

/**
 * Languages whose stemmers change the start of a word (Arabic articles, Indonesian and Irish
 * prefixes…): any word may share a stem with the query there, so every word is a candidate.
 */
const startChanging = new Set(['arabic', 'indonesian', 'irish', 'nepali', 'tamil']);

interface WordMatcher {
  /** The folded query word, stemmed unless it is a prefix. */
  key: string;
  prefix: boolean;
}

interface Instance {
  start: number;
  end: number;
  term: number;
}

/** A word of the text that may match: where it is, folded, and stemmed as the index stemmed it. */
interface Candidate {
  start: number;
  end: number;
  folded: string;
  stemmed: string;
}

/** Whether a candidate is a query word: its stem equal to the word's, or for a prefix, either form starting with it. */
function matches(word: Candidate, matcher: WordMatcher): boolean {
  return matcher.prefix ? word.folded.startsWith(matcher.key) || word.stemmed.startsWith(matcher.key) : word.stemmed === matcher.key;
}

/** The required terms of a query, ready to find in the text of documents of one language. */
export class SnippetMaker {
  readonly #terms: WordMatcher[][];
  readonly #starts: string[];
  /** Built when a text that is not plain ASCII comes: its accented classes cost more to compile than a page of plain snippets. */
  #candidates: RegExp | undefined;
  readonly #asciiCandidates: RegExp;
  readonly #stem: Stemmer | undefined;
  /** Which terms a passage holds: the count of the passage that saw each one last (no set per passage). */
  readonly #seen: Int32Array;
  #passages = 0;

  constructor(query: SearchQuery, stem: Stemmer | undefined, language?: string) {
    this.#stem = stem;
    this.#terms = query.groups.flat().map((term) =>
      term.words.map((word, index) => {
        const prefix = term.prefix && index === term.words.length - 1;
        const folded = foldWord(word);
        return { key: stem && !prefix ? stem(folded) : folded, prefix };
      }),
    );
    this.#seen = new Int32Array(this.#terms.length);
    // A stem differs from its words in the last letters only (happy, happi; chevaux, cheval), so words
    // starting like a query word's key but for those are the only candidates; unstemmed words must
    // equal the key (or start with it).
    const starts = [...new Set(this.#terms.flat().map(({ key }) => (stem === undefined ? key : startChanging.has(language ?? '') ? '' : key.slice(0, Math.max(1, key.length - 2)))))];
    this.#starts = starts;
    // Keys hold only letters and digits (the query keeps nothing else and folding drops the marks):
    // nothing to escape. ASCII text is searched ignoring case, with the ASCII keys; other text as it is,
    // each letter also matching its accented forms, which folding would give it. The regular
    // expressions start with the keys' letters, which V8 scans for quickly; word starts are checked after.
    // An empty start makes every word a candidate.
    const asciiStarts = starts.filter((start) => ascii.test(start));
    this.#asciiCandidates = starts.includes('') ? /[a-z0-9]+/gi : new RegExp(`(?:${asciiStarts.join('|') || '(?!)'})[a-z0-9]*`, 'gi');
  }

  #unicodeCandidates(): RegExp {
    const starts = this.#starts;
    this.#candidates ??= new RegExp(starts.includes('') ? `[${wordClass}]+` : `(?:${starts.map((start) => [...start].map(withAccents).join('')).join('|')})[${wordClass}]*`, 'giu');
    return this.#candidates;
  }

  /** The text's passage that holds the most distinct terms, with the matches between marks; undefined when none matches. */
  passage(text: string): { snippet: string; terms: number } | undefined {
    const instances = this.#instances(text);
    if (instances.length === 0) return undefined;
    // No passage holds more distinct terms than the whole text: one that holds them all is the one shown.
    const inText = this.#distinctTerms(instances, 0, text.length);
    let best: { start: number; end: number; terms: number } | undefined;
    for (const anchor of instances.slice(0, maxAnchors)) {
      let start = wordsBefore(text, anchor.start, contextWords);
      const after = wordsAfter(text, start, snippetWords);
      // Near the end of the text, the passage starts earlier to show as many words.
      if (after.words < snippetWords) start = wordsBefore(text, start, snippetWords - after.words);
      const end = after.end;
      const terms = this.#distinctTerms(instances, start, end);
      if (!best || terms > best.terms) best = { start, end, terms };
      if (best.terms === inText) break;
    }
    const { start, end, terms } = best!;
    return { snippet: marked(text, start, end, instances), terms };
  }

  /** Where the terms occur: each word that may match, checked against every term's words; phrases as runs of adjacent words. */
  #instances(text: string): Instance[] {
    const terms = this.#terms;
    // Terms of one word each (most queries) are matched as their candidates come, so the instances
    // come in text order; phrases need the candidates listed first, to find runs of adjacent words.
    const phrases = terms.some((matchers) => matchers.length > 1);
    const words: Candidate[] = [];
    const instances: Instance[] = [];
    const plain = isAscii(text);
    for (const match of text.matchAll(plain ? this.#asciiCandidates : this.#unicodeCandidates())) {
      // A candidate inside a word (after a letter, digit or mark) is no word of its own.
      const inWord = match.index > 0 && (plain ? isAsciiWordCode(text.charCodeAt(match.index - 1)) : wordCharacterBefore.test(text.slice(Math.max(0, match.index - 2), match.index)));
      if (inWord) continue;
      const folded = plain ? match[0].toLowerCase() : foldWord(match[0]);
      const word = { start: match.index, end: match.index + match[0].length, folded, stemmed: this.#stem ? this.#stem(folded) : folded };
      if (phrases) words.push(word);
      else for (let term = 0; term < terms.length; term += 1) if (matches(word, terms[term]![0]!)) instances.push({ start: word.start, end: word.end, term });
    }
    if (!phrases) return instances;
    for (const [term, matchers] of terms.entries()) {
      if (matchers.length === 1) {
        for (const word of words) if (matches(word, matchers[0]!)) instances.push({ start: word.start, end: word.end, term });
        continue;
      }
      for (let first = 0; first + matchers.length <= words.length; first += 1) {
        const run = words.slice(first, first + matchers.length);
        const adjacent = run.every((word, index) => index === 0 || !hasWordCharacter.test(text.slice(run[index - 1]!.end, word.start)));
        if (adjacent && run.every((word, index) => matches(word, matchers[index]!))) instances.push({ start: run[0]!.start, end: run.at(-1)!.end, term });
      }
    }
    // Each term's instances come in text order: sorted already when one term occurs, and sorting allocates.
    return isInTextOrder(instances) ? instances : instances.sort((a, b) => a.start - b.start);
  }

  /** How many of the query's terms occur between `start` and `end`. */
  #distinctTerms(instances: readonly Instance[], start: number, end: number): number {
    const passage = (this.#passages += 1);
    let terms = 0;
    for (const instance of instances) {
      if (instance.start < start || instance.end > end || this.#seen[instance.term] === passage) continue;
      this.#seen[instance.term] = passage;
      terms += 1;
    }
    return terms;
  }
}

/**
 * The snippet of a document: the passage of the field holding the most distinct terms (the body on
 * a tie, it says more than the title the result shows anyway), else the body's first words (a
 * match the stemmer here did not see, such as a language without one), else the title's.
 */
export function makeSnippet(maker: SnippetMaker, title: string, body: string): string {
  const inTitle = maker.passage(title);
  const inBody = maker.passage(body);
  if (inBody && (!inTitle || inBody.terms >= inTitle.terms)) return inBody.snippet;
  if (inTitle) return inTitle.snippet;
  const text = body.trim() === '' ? title : body;
  return marked(text, 0, wordsAfter(text, 0, snippetWords).end, []);
}

/** The text from `start` to `end` with its instances between marks (overlaps merged), and `…` where it was cut. */
function marked(text: string, start: number, end: number, instances: readonly Instance[]): string {
  let result = hasWordCharacter.test(text.slice(0, start)) ? '…' : '';
  let at = start;
  for (const instance of instances) {
    if (instance.end <= at || instance.start < at || instance.end > end) continue;
    result += `${text.slice(at, instance.start)}${snippetMarks.start}${text.slice(instance.start, instance.end)}${snippetMarks.end}`;
    at = instance.end;
  }
  // Where no word follows, the text's last punctuation is shown too.
  const more = hasWordCharacter.test(text.slice(end));
  result += text.slice(at, more ? end : text.length);
  return more ? `${result.trimEnd()}…` : result.trimEnd();
}

/** Whether the instances are sorted by where they start. */
function isInTextOrder(instances: readonly Instance[]): boolean {
  for (let index = 1; index < instances.length; index += 1) if (instances[index]!.start < instances[index - 1]!.start) return false;
  return true;
}

/** Whether the character at `index` belongs to a word (a letter, digit or mark), ASCII tested without a regular expression. */
function isWordCharacter(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code < 0x80) return isAsciiWordCode(code);
  // Half of a surrogate pair: the whole character decides.
  const at = code >= 0xdc00 && code <= 0xdfff && index > 0 ? index - 1 : index;
  return wordCharacter.test(String.fromCodePoint(text.codePointAt(at)!));
}

/** Where the text resumes `count` words before `at` (the start of the earliest of them). */
function wordsBefore(text: string, at: number, count: number): number {
  let start = at;
  let index = at;
  for (let words = 0; words < count; words += 1) {
    while (index > 0 && !isWordCharacter(text, index - 1)) index -= 1;
    if (index === 0) break;
    while (index > 0 && isWordCharacter(text, index - 1)) index -= 1;
    start = index;
  }
  return start;
}

/** Where `count` words after `from` end, and how many there were (fewer at the end of the text). */
function wordsAfter(text: string, from: number, count: number): { end: number; words: number } {
  let end = from;
  let index = from;
  let words = 0;
  for (; words < count; words += 1) {
    while (index < text.length && !isWordCharacter(text, index)) index += 1;
    if (index === text.length) break;
    while (index < text.length && isWordCharacter(text, index)) index += 1;
    end = index;
  }
  return { end, words };
}

let accentedForms: Map<string, string> | undefined;

/**
 * A letter as a character class with every accented letter that folds to it (é, è, ê… for e), so
 * candidates are found in the text as it is stored. Built once, from the Latin, Greek and Cyrillic
 * blocks, where accents are.
 */
function withAccents(letter: string): string {
  if (!accentedForms) {
    accentedForms = new Map();
    for (const [from, to] of [
      [0xc0, 0x24f],
      [0x370, 0x4ff],
      [0x1e00, 0x1fff],
    ] as const) {
      for (let code = from; code <= to; code += 1) {
        const char = String.fromCodePoint(code);
        const folded = foldWord(char);
        if (folded.length === 1 && folded !== char.toLowerCase()) accentedForms.set(folded, (accentedForms.get(folded) ?? '') + char);
      }
    }
  }
  const forms = accentedForms.get(letter);
  return forms === undefined ? letter : `[${letter}${forms}]`;
}
