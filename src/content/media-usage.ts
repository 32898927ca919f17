import { entryMediaNames, keysNamed, mediaNamingTypes, usagePairs } from '../core/media-references.ts';
import { deleteEntryUsage, idsOfKeys, replaceEntryUsage } from '../media/usage-store.ts';
import { hasSeo, seoKey } from '../seo/values.ts';
import type { EntryChangeListener } from './changes.ts';
import { seoImageNames } from './entries.ts';

/**
 * Keeps `media_usage` exact inside every entry write (decisions/0045): the rows of the entry become
 * what its working and live values now name, its SEO image too (under the field id `_seo`,
 * decisions/0059). A collection with no image, file or Portable Text field and no SEO costs nothing; rows of a field removed since are left and ignored on read (media/usage.ts).
 */
export const recordMediaUsage: EntryChangeListener = async (change, tx) => {
  if (change.kind === 'deleted') return deleteEntryUsage(tx, change.entryId);
  const fields = change.collection.fields.filter((field) => mediaNamingTypes.has(field.type));
  const seo = hasSeo(change.collection);
  if (fields.length === 0 && !seo) return;
  const byField = entryMediaNames(fields, change.entry);
  if (seo) {
    const image = seoImageNames(change.entry);
    if (image) byField.set(seoKey, image);
  }
  const pairs = usagePairs(byField, await idsOfKeys(tx, keysNamed(byField)));
  await replaceEntryUsage(tx, change.collection.id, change.entryId, pairs, { isNew: change.kind === 'created' });
};
