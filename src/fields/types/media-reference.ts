import { fail, pass, type FieldTypeDefinition, type ValueCheck } from '../field-type.ts';
import { jsonText } from '../storage.ts';
import { isPlainObject } from '../../core/plain-object.ts';
import { ulidPattern } from './reference.ts';

/**
 * An image or file value as stored, the shape every input form is normalized to. At least one of `id`
 * and `url` is present; reads fill in the rest from the media item (content/media-values.ts, decisions/0014).
 */
export interface StoredMediaReference {
  id?: string;
  url?: string;
  alt?: string;
  /** The entry's own caption of the file (an imported featured image keeps its attachment's). */
  caption?: string;
}

const mediaUrlMaxLength = 2048;
const mediaShape = 'Must be a media id, an http(s) URL or /path, or {id, url, alt, caption} with an id or a url';

function checkMediaReference(value: unknown): ValueCheck {
  if (typeof value === 'string') {
    if (ulidPattern.test(value)) return pass({ id: value });
    return isMediaUrl(value) ? pass({ url: value }) : fail(mediaShape);
  }
  if (!isPlainObject(value)) return fail(mediaShape);
  const unknownKey = Object.keys(value).find((key) => !['id', 'url', 'alt', 'caption'].includes(key));
  if (unknownKey !== undefined) return fail(`Unknown key ${JSON.stringify(unknownKey)}: ${mediaShape}`);
  const reference: StoredMediaReference = {};
  const { id, url, alt, caption } = value;
  if (id !== undefined && id !== null) {
    if (typeof id !== 'string' || !ulidPattern.test(id)) return fail('id must be a media id (a 26-character ULID)');
    reference.id = id;
  }
  if (url !== undefined && url !== null) {
    if (typeof url !== 'string' || !isMediaUrl(url)) return fail(`url must be an http(s) URL or a path starting with / (at most ${mediaUrlMaxLength} characters)`);
    reference.url = url;
  }
  if (alt !== undefined && alt !== null) {
    if (typeof alt !== 'string') return fail('alt must be a string');
    reference.alt = alt;
  }
  if (caption !== undefined && caption !== null) {
    if (typeof caption !== 'string') return fail('caption must be a string');
    reference.caption = caption;
  }
  return reference.id === undefined && reference.url === undefined ? fail(mediaShape) : pass(reference);
}

/** Only web URLs and site paths: a `javascript:` or `data:` URL would end up in someone's `<img src>`. */
function isMediaUrl(text: string): boolean {
  if (text.length > mediaUrlMaxLength || /\s/.test(text)) return false;
  if (text.startsWith('/')) return !text.startsWith('//');
  if (!URL.canParse(text)) return false;
  const { protocol } = new URL(text);
  return protocol === 'https:' || protocol === 'http:';
}

/** What image and file fields share: they differ only in what the panel offers to pick. */
export const mediaReference: Omit<FieldTypeDefinition, 'widget' | 'changesTo'> = {
  holds: 'media references',
  validation: [],
  options: [],
  unique: false,
  storage: jsonText,
  check: checkMediaReference,
  typeScript: () => 'MediaReference',
  pointsAt: 'media',
};
