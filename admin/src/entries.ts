import type { ContentCollection, Entry } from './api/client';

/** The field an entry is named by: `title`, else the first short text field; none means the slug. */
export function titleFieldOf(collection: ContentCollection): string | undefined {
  return (collection.fields.find((field) => field.slug === 'title') ?? collection.fields.find((field) => field.type === 'string'))?.slug;
}

/** How an entry is named in lists: its title, else its slug. */
export function entryTitle(collection: ContentCollection, entry: Entry): string {
  const field = titleFieldOf(collection);
  const value = field === undefined ? undefined : entry.data[field];
  return typeof value === 'string' && value.trim() !== '' ? value : entry.slug;
}

/** The id in an entry's address (`/content/:collection/new`) that stands for a new entry, not yet saved. */
export const newEntryId = 'new';
