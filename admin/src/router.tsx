import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter, lazyRouteComponent } from '@tanstack/react-router';
import { collectionsQuery, entryListQuery, entryQuery, meQuery, revisionListQuery, settingsQuery } from './api/queries';
import { grantsQuery, passkeysQuery } from './screens/account/queries';
import { ListSearch, listView } from './screens/content-list/search';
import { RevisionsSearch } from './screens/revisions/search';
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

// The entry editor: its chunk (widgets, dialogs, autosave) loads only when an entry opens.
const newEntryRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/content/$collection/new',
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(collectionsQuery);
    void context.queryClient.prefetchQuery(settingsQuery);
  },
  component: lazyRouteComponent(() => import('./screens/editor/EntryEditor'), 'NewEntry'),
});

const entryRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/content/$collection/$id',
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(collectionsQuery);
    void context.queryClient.prefetchQuery(settingsQuery);
    void context.queryClient.prefetchQuery(entryQuery(params.collection, params.id));
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

const routeTree = rootRoute.addChildren([dashboardRoute, contentListRoute, newEntryRoute, entryRoute, revisionsRoute, accountRoute, mediaRoute]);

export function createPanelRouter(queryClient: QueryClient) {
  return createRouter({ routeTree, basepath: '/_cms/admin', context: { queryClient }, defaultPreload: 'intent', scrollRestoration: true });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createPanelRouter>;
  }
}
