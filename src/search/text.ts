/**
 * Text as the index holds it, and the little text handling search does itself: folding for
 * suggestions, and turning the engines' marked snippets into safe HTML.
 */

// Control characters other than tab and line breaks: never content, and the snippet marks are among
// them, so a stored text can never fake a mark.
const unindexable = /\p{Cc}/gu;

/**
 * What snippets put around matched terms: control characters that stored text never holds, so
 * escaping the snippet afterwards cannot be confused.
 */
export const snippetMarks = { start: '\u0001', end: '\u0002' } as const;

/** Text as it is indexed: well-formed, composed (NFC: é is one character on both engines), no control characters. */
export function indexableText(text: string): string {
  return text
    .toWellFormed()
    .normalize('NFC')
    .replace(unindexable, (char) => (char === '\t' || char === '\n' || char === '\r' ? char : ' '));
}

/** Lower case without diacritics, as both engines compare words. */
export function foldWord(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Lower-case words without diacritics, letters and digits only: how suggestions compare titles and prefixes. */
function foldedWords(text: string): string[] {
  return foldWord(text.toWellFormed()).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Suggestions compare this many characters of a title at most: enough to tell titles apart while typing. */
const titleKeyLength = 64;
/** The words of a title a suggestion may start at; later words of long titles are not offered. */
const titleKeyWords = 16;

/**
 * A title's suggestion keys: its folded text from each word on, so that one key range finds titles
 * that start with what was typed and titles with a word that does ("york" finds "New York").
 */
export function titleKeys(title: string): string[] {
  const words = foldedWords(title);
  const keys = words.slice(0, titleKeyWords).map((_, index) => words.slice(index).join(' ').slice(0, titleKeyLength));
  return [...new Set(keys)];
}

/**
 * What was typed, folded like the keys. A trailing space is kept: "new " asks for the word "new"
 * followed by more, not "newspaper".
 */
export function suggestionPrefix(typed: string): string {
  const words = foldedWords(typed);
  if (words.length === 0) return '';
  const prefix = words.join(' ') + (/\s$/.test(typed) ? ' ' : '');
  return prefix.slice(0, titleKeyLength);
}

const htmlEscapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** What snippetHtml replaces: the characters HTML escapes, and the marks. */
const escapedOrMark = new RegExp(`[&<>"'${snippetMarks.start}${snippetMarks.end}]`, 'g');

/**
 * An engine's snippet as HTML: everything escaped, the marked terms in `<mark>`, marks always
 * balanced. One pass over the text: a snippet of each result of every search goes through here.
 */
export function snippetHtml(marked: string): string {
  let open = false;
  const html = marked.replace(escapedOrMark, (char) => {
    if (char !== snippetMarks.start && char !== snippetMarks.end) return htmlEscapes[char]!;
    const opening = char === snippetMarks.start;
    const tag = opening === open ? '' : opening ? '<mark>' : '</mark>';
    open = opening;
    return tag;
  });
  return open ? `${html}</mark>` : html;
}
