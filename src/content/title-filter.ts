import type { RawBuilder, SqlBool } from 'kysely';
import type { AuthorizedContext } from '../core/operation.ts';
import { containsInsensitive } from '../db/dialect.ts';
import { liveSortValue } from '../db/entry-tables.ts';
import type { FieldDefinition } from '../fields/definition.ts';
import { fieldType } from '../fields/registry.ts';
import type { LoadedCollection } from '../schema/store.ts';
import { viewOf } from './lookup.ts';

/**
 * The field an entry is named by in the panel's lists and pickers (admin/src/entries.ts): `title`,
 * else the first `string` field. A `title` whose column does not hold plain text (a portableText
 * title is JSON) cannot be matched as text, so the first `string` field names the entry then.
 */
function titleFieldOf(collection: LoadedCollection): FieldDefinition | undefined {
  const title = collection.fields.find((field) => field.slug === 'title' && fieldType(field.type).storage.encoding === 'string');
  return title ?? collection.fields.find((field) => field.type === 'string');
}

/**
 * `q` of a list: entries whose title contains `text` (case-insensitive, `%` and `_` literal); the slug
 * in a collection without a title field, as the panel then names entries by it. Readers match the
 * live title (the one kept in `_live` while a draft is staged), so a draft's title never shows
 * through what a search finds.
 */
export function titleContains(ctx: AuthorizedContext, collection: LoadedCollection, text: string): RawBuilder<SqlBool> {
  const field = titleFieldOf(collection);
  if (field === undefined) return containsInsensitive('_slug', text);
  const value = viewOf(ctx) === 'reader' ? liveSortValue(ctx.db, field.slug, 'text') : field.slug;
  return containsInsensitive(value, text);
}
