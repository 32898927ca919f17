import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter, lazyRouteComponent } from '@tanstack/react-router';
import { collectionsQuery, entryListQuery, entryQuery, meQuery, revisionListQuery, settingsQuery, taxonomiesQuery } from './api/queries';
import { newEntryId } from './entries';
import { loadPortableTextInput } from './portable-text/load';
import { grantsQuery, passkeysQuery } from './screens/account/queries';
import { ListSearch, listView } from './screens/content-list/search';
import { RevisionsSearch } from './screens/revisions/search';
import { AuditSearch } from './screens/audit/search';
import { ImportSearch } from './screens/import/search';
import { peopleQuery } from './screens/people/queries';
import { pluginsQuery } from './screens/plugins/queries';
import { tokensQuery } from './screens/tokens/queries';
import { subscriptionsQuery } from './screens/webhooks/queries';
import { searchStatsQuery } from './screens/search-index/queries';
import { fieldTypesQuery, schemaCollectionQuery } from './screens/schema/queries';
import { menuQuery, menusQuery } from './screens/menus/queries';
import { termTreeQuery } from './screens/taxonomies/queries';
import { sectionQuery, sectionsQuery } from './screens/sections/queries';
import { areaQuery, areasQuery } from './screens/widgets/queries';
import { MediaSearch } from './screens/media/search';
import { ErrorScreen, NotFoundScreen } from './shell/Problems';
import { Shell } from './shell/Shell';

/**
 * The panel's screens under /_cms/admin/. Each screen's component is its own chunk, loaded when its
 * route is first shown; what the URL carries (a list's filter and sort) is declared and checked here.
 * Loaders start each screen's requests at once, beside the chunk's download, without waiting for
 * them: the screen shows what has come and the rest as it comes.
 */
const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(meQuery);
  },
  component: Shell,
  notFoundComponent: () => <NotFoundScreen />,
  errorComponent: ErrorScreen,
});

const dashboardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  component: lazyRouteComponent(() => import('./screens/dashboard/Dashboard'), 'Dashboard'),
});

export const contentListRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/content/$collection',
  validateSearch: ListSearch,
  loaderDeps: ({ search }) => listView(search),
  loader: ({ context, params, deps }) => {
    void context.queryClient.prefetchQuery(collectionsQuery);
    void context.queryClient.prefetchInfiniteQuery(entryListQuery(params.collection, deps));
  },
  component: lazyRouteComponent(() => import('./screens/content-list/ContentList'), 'ContentList'),
});

/** The signed-in person's passkeys, connected apps and sign-out (decisions/0048). */
const accountRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/account',
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(passkeysQuery);
    void context.queryClient.prefetchQuery(grantsQuery);
  },
  component: lazyRouteComponent(() => import('./screens/account/Account'), 'Account'),
});

/**
 * The entry editor, of an entry or, at id `new`, of a new one: one route, so that the save which
 * gives a new entry its id only changes the address and the same editor goes on (caret, focus and
 * the keys typed meanwhile kept). Its chunk (widgets, dialogs, autosave) loads only when an entry
 * opens; the Portable Text engine's, when the collection has such a field, loads beside it and the
 * entry rather than once the field first renders.
 */
const entryRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/content/$collection/$id',
  loader: ({ context, params }) => {
    void context.queryClient.ensureQueryData(collectionsQuery).then((collections) => {
      const collection = collections.items.find((candidate) => candidate.slug === params.collection);
      if (collection?.fields.some((field) => field.type === 'portableText')) void loadPortableTextInput();
      // Collections that cannot be read are the screen's to explain, through its own query.
    }, () => undefined);
    void context.queryClient.prefetchQuery(settingsQuery);
    if (params.id !== newEntryId) void context.queryClient.prefetchQuery(entryQuery(params.collection, params.id));
  },
  component: lazyRouteComponent(() => import('./screens/editor/EntryEditor'), 'EntryEditor'),
});

/** An entry's history: which revisions are compared is in the URL (`from`, `to`), so a comparison can be shared. */
export const revisionsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/content/$collection/$id/revisions',
  validateSearch: RevisionsSearch,
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(collectionsQuery);
    void context.queryClient.prefetchQuery(revisionListQuery(params.collection, params.id));
  },
  component: lazyRouteComponent(() => import('./screens/revisions/Revisions'), 'Revisions'),
});

const mediaRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/media',
  validateSearch: MediaSearch,
  component: lazyRouteComponent(() => import('./screens/media/MediaScreen'), 'MediaScreen'),
});

/** The site's settings, for admins (issue 33). */
const settingsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/settings',
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(settingsQuery);
  },
  component: lazyRouteComponent(() => import('./screens/settings/Settings'), 'Settings'),
});

/** The loaded plugins, for admins (issue 33). */
const pluginsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/plugins',
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(pluginsQuery);
  },
  component: lazyRouteComponent(() => import('./screens/plugins/Plugins'), 'Plugins'),
});

/** Webhook subscriptions and their deliveries, for admins (issue 33). */
const webhooksRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/webhooks',
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(subscriptionsQuery);
  },
  component: lazyRouteComponent(() => import('./screens/webhooks/Webhooks'), 'Webhooks'),
});

/** Every app connected over OAuth, for admins (issue 33). */
const appsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/apps',
  component: lazyRouteComponent(() => import('./screens/apps/ConnectedApps'), 'ConnectedApps'),
});

/** Taxonomies, for Editors and up (issue 33): the list, then one taxonomy's terms as a tree. */
const taxonomiesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/taxonomies',
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(taxonomiesQuery);
  },
  component: lazyRouteComponent(() => import('./screens/taxonomies/Taxonomies'), 'Taxonomies'),
});

const taxonomyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/taxonomies/$name',
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(taxonomiesQuery);
    void context.queryClient.prefetchQuery(termTreeQuery(params.name));
  },
  component: lazyRouteComponent(() => import('./screens/taxonomies/TaxonomyTerms'), 'TaxonomyTerms'),
});

/** Sections (reusable blocks), for Editors and up (issue 33): the list, then one section's editor. */
const sectionsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sections',
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(sectionsQuery);
  },
  component: lazyRouteComponent(() => import('./screens/sections/Sections'), 'Sections'),
});

const sectionRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sections/$slug',
  loader: ({ context, params }) => {
    void loadPortableTextInput();
    void context.queryClient.prefetchQuery(sectionQuery(params.slug));
  },
  component: lazyRouteComponent(() => import('./screens/sections/SectionEditor'), 'SectionEditor'),
});

/** Widget areas, for Editors and up (issue 33): the list, then one area's widgets. */
const widgetAreasRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/widget-areas',
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(areasQuery);
  },
  component: lazyRouteComponent(() => import('./screens/widgets/WidgetAreas'), 'WidgetAreas'),
});

const widgetAreaRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/widget-areas/$name',
  loader: ({ context, params }) => {
    void loadPortableTextInput();
    void context.queryClient.prefetchQuery(areaQuery(params.name));
  },
  component: lazyRouteComponent(() => import('./screens/widgets/AreaEditor'), 'AreaEditor'),
});

/** Menus, for Editors and up (issue 33): the list, then one menu's tree editor. */
const menusRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/menus',
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(menusQuery);
  },
  component: lazyRouteComponent(() => import('./screens/menus/Menus'), 'Menus'),
});

const menuRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/menus/$name',
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(menuQuery(params.name));
  },
  component: lazyRouteComponent(() => import('./screens/menus/MenuEditor'), 'MenuEditor'),
});

/** The schema builder, for admins (issue 33): the collections, then one collection's fields. */
const schemaRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/schema',
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(collectionsQuery);
  },
  component: lazyRouteComponent(() => import('./screens/schema/Collections'), 'Collections'),
});

const schemaCollectionRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/schema/$collection',
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(schemaCollectionQuery(params.collection));
    void context.queryClient.prefetchQuery(fieldTypesQuery);
  },
  component: lazyRouteComponent(() => import('./screens/schema/CollectionSchema'), 'CollectionSchema'),
});

/** The search index's counts and its rebuild, for admins (issue 33). */
const searchIndexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/search-index',
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(searchStatsQuery);
  },
  component: lazyRouteComponent(() => import('./screens/search-index/SearchIndex'), 'SearchIndex'),
});

/** The import wizard, for admins (issue 33): its step (an analysis, an import) in the address. */
const importRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/import',
  validateSearch: ImportSearch,
  component: lazyRouteComponent(() => import('./screens/import/Import'), 'Import'),
});

/** The audit log, for admins (issue 33). */
const auditRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/audit',
  validateSearch: AuditSearch,
  component: lazyRouteComponent(() => import('./screens/audit/AuditLog'), 'AuditLog'),
});

/** The site's people, for admins (issue 33). */
const peopleRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/people',
  loader: ({ context }) => {
    void context.queryClient.prefetchInfiniteQuery(peopleQuery({ search: '', role: undefined }));
  },
  component: lazyRouteComponent(() => import('./screens/people/People'), 'People'),
});

/** Personal access tokens, for admins (issue 33). */
const tokensRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/tokens',
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(tokensQuery);
  },
  component: lazyRouteComponent(() => import('./screens/tokens/Tokens'), 'Tokens'),
});

const routeTree = rootRoute.addChildren([dashboardRoute, contentListRoute, entryRoute, revisionsRoute, accountRoute, mediaRoute, settingsRoute, peopleRoute, tokensRoute, pluginsRoute, webhooksRoute, auditRoute, importRoute, appsRoute, searchIndexRoute, schemaRoute, schemaCollectionRoute, menusRoute, menuRoute, taxonomiesRoute, taxonomyRoute, sectionsRoute, sectionRoute, widgetAreasRoute, widgetAreaRoute]);

export function createPanelRouter(queryClient: QueryClient) {
  return createRouter({ routeTree, basepath: '/_cms/admin', context: { queryClient }, defaultPreload: 'intent', scrollRestoration: true });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createPanelRouter>;
  }
}
