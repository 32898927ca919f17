import { randomBytes } from 'node:crypto';

/**
 * Storage keys (DECISIONS §4c): letters, digits and `/ _ . -`, at most 255 characters, no empty
 * segment and no segment that starts with a dot (so no `..`, and no `.partial/` of local storage).
 * Keys Folio makes start with a random part, so a file's URL cannot be guessed from another's.
 */
export const storageKeyMaxLength = 255;
const keyPattern = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/;

/** Derived images live under this prefix; no record may claim a key there. */
const derivedPrefix = '_derived/';

/** What is wrong with a key a client names, or undefined when it is a valid key for a record. */
export function storageKeyProblem(key: string): string | undefined {
  if (key.length === 0 || key.length > storageKeyMaxLength) return `Must be 1-${storageKeyMaxLength} characters`;
  if (!keyPattern.test(key)) return 'Must be letters, digits, "/", "_", "." and "-", in segments that do not start with "." (no "..", no leading or doubled "/")';
  if (key.startsWith(derivedPrefix)) return `Keys under ${derivedPrefix} are Folio's own`;
  return undefined;
}

/** A new key for a file: `YYYY/MM/<22 random characters>-<safe name>`. */
export function newStorageKey(filename: string, now: Date): string {
  const month = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  return `${month}/${randomBytes(16).toString('base64url')}-${safeName(filename)}`;
}

/**
 * Where a derived image of a media item is kept. Each rendering gets a key of its own, so two
 * processes rendering the same variant never overwrite each other's bytes: the row recorded first
 * names the object that is served, and the other is removed.
 */
export function derivedKey(mediaId: string, variant: string): string {
  return `${derivedPrefix}${mediaId}/${randomBytes(6).toString('base64url')}-${variant}`;
}

/** The file name reduced to key characters, lower case, at most 80 of them; `file` when nothing is left. */
function safeName(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[.-]+|-+$/g, '')
    .slice(-80)
    .replace(/^[.-]+/, '');
  return cleaned || 'file';
}

/** The key as a URL path: each segment percent-encoded (they hold no character that needs it today). */
export function keyPath(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}
