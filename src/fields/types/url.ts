import type { FieldValidation } from '../definition.ts';
import { fail, type FieldTypeDefinition, type ValueCheck } from '../field-type.ts';
import { sortedText } from '../storage.ts';
import { checkLength, textValidation } from '../text-checks.ts';

/**
 * The longest URL kept, as stored. The stored form is ASCII (below), so this is also its size in
 * bytes, which keeps every value within the ~2,700 bytes PostgreSQL allows an index entry.
 */
const urlMaxLength = 2048;

/**
 * Web pages, and the contact links a call to action often is. Each is inert in an `href` (no script
 * runs, nothing is fetched when the page renders), which `javascript:` and `data:` are not; a field
 * narrows them with `validation.pattern` (`^https://`).
 */
const schemes = ['http:', 'https:', 'mailto:', 'tel:'];

const expected = 'Must be an absolute URL starting with http://, https://, mailto: or tel:, e.g. https://example.com/page';

/**
 * Stored as the URL standard serializes it (what a browser requests): lower-case scheme and host,
 * host in punycode, other non-ASCII characters %-encoded, `/` as the path of a bare origin. One
 * spelling per URL, so `unique` compares addresses, and `pattern` and lengths apply to that form.
 */
function checkUrl(value: unknown, validation: FieldValidation): ValueCheck {
  if (typeof value !== 'string') return fail('Must be a string');
  const text = value.trim();
  const url = URL.parse(text);
  // A bare `mailto:` or `tel:` (nothing after the scheme) names no one.
  if (url === null || !schemes.includes(url.protocol) || url.href === url.protocol) return fail(expected);
  // The parser drops tabs and line breaks inside a URL; an author's stray one is refused instead.
  if (/\s/.test(text)) return fail('Must not contain spaces or line breaks (write a space as %20)');
  if (url.href.length > urlMaxLength) return fail(`Must be at most ${urlMaxLength} characters (non-ASCII characters count as their %-encoding)`);
  return checkLength(url.href, validation);
}

/**
 * The words of a stored URL, without its scheme and %-decoded (`example org guide café` for
 * `https://example.org/guide/caf%C3%A9`). Given whole, PostgreSQL's parser keeps a URL as one
 * term while SQLite's splits it, so the same search would find different entries on each engine.
 */
function urlWords(value: unknown): string {
  const href = String(value);
  const rest = href.slice(href.indexOf(':') + 1);
  return decoded(rest).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // A stray % that starts no escape is kept as written by the URL standard; its words still count.
    return text;
  }
}

export const urlField: FieldTypeDefinition = {
  widget: 'url-input',
  holds: 'absolute http(s), mailto: or tel: URLs',
  validation: textValidation,
  options: [],
  unique: true,
  changesTo: ['text'],
  storage: sortedText,
  check: checkUrl,
  typeScript: () => 'string',
  searchText: urlWords,
};
