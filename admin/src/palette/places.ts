import type { ContentCollection } from '../api/client';
import type { MessageId } from '../i18n/en';
import { roles } from '../roles';

/** A place the palette can go to: a screen of the panel, a collection's list, an entry's editor. */
export interface Place {
  id: string;
  /** The panel's path, below its base (/_cms/admin). */
  path: string;
  label: string;
  /** A quieter line (the collection an entry belongs to). */
  detail?: string;
}

/** The admins' screens, in the order the navigation lists them (shell/Shell.tsx) and the palette offers them. */
export const adminScreens = [
  { path: '/schema', label: 'nav.schema' },
  { path: '/import', label: 'nav.import' },
  { path: '/people', label: 'nav.people' },
  { path: '/tokens', label: 'nav.tokens' },
  { path: '/apps', label: 'nav.apps' },
  { path: '/plugins', label: 'nav.plugins' },
  { path: '/webhooks', label: 'nav.webhooks' },
  { path: '/audit', label: 'nav.audit' },
  { path: '/search-index', label: 'nav.searchIndex' },
  { path: '/settings', label: 'nav.settings' },
] as const satisfies readonly { path: string; label: MessageId }[];

/** The site's structure (taxonomies and their terms, menus, sections, widget areas), for Editors and up, in the order the navigation lists them. */
export const structureScreens = [
  { path: '/taxonomies', label: 'nav.taxonomies' },
  { path: '/menus', label: 'nav.menus' },
  { path: '/sections', label: 'nav.sections' },
  { path: '/widget-areas', label: 'nav.widgetAreas' },
] as const satisfies readonly { path: string; label: MessageId }[];

/**
 * The screens the palette offers, when the panel has them: a screen another branch adds (the media
 * library) appears once its route exists, so the list never offers a place that is not there;
 * a screen is offered from the role it needs (`minRole`) up.
 */
export const screens: { path: string; label: MessageId; minRole?: number }[] = [
  { path: '/', label: 'nav.dashboard' },
  { path: '/media', label: 'palette.media' },
  { path: '/account', label: 'nav.account' },
  ...structureScreens.map((screen) => ({ ...screen, minRole: roles.editor })),
  ...adminScreens.map((screen) => ({ ...screen, minRole: roles.admin })),
];

/** The editor of an entry (the route the entry editor declares). */
export const entryPath = (collection: string, id: string) => `/content/${encodeURIComponent(collection)}/${encodeURIComponent(id)}`;

export function collectionPlaces(collections: readonly ContentCollection[], label: (collection: ContentCollection) => string): Place[] {
  return collections.map((collection) => ({ id: `collection:${collection.slug}`, path: `/content/${encodeURIComponent(collection.slug)}`, label: label(collection) }));
}

/** Whether every word typed is somewhere in the label, in any case: "post list" finds "Posts: all entries". */
export function matches(label: string, typed: string): boolean {
  const words = typed.toLocaleLowerCase().split(/\s+/).filter((word) => word !== '');
  const text = label.toLocaleLowerCase();
  return words.every((word) => text.includes(word));
}

/**
 * What /search is asked for what was typed: the last word as a prefix (the person is still typing
 * it), unless it already ends a phrase or is a prefix or an exclusion.
 */
export function searchText(typed: string): string {
  const text = typed.trim();
  const last = text.split(/\s+/).at(-1) ?? '';
  return /[\p{L}\p{N}]$/u.test(text) && !last.startsWith('-') && (text.split('"').length - 1) % 2 === 0 ? `${text}*` : text;
}
