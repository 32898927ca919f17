import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter, lazyRouteComponent } from '@tanstack/react-router';
import { collectionsQuery, entryListQuery, meQuery } from './api/queries';
import { ListSearch, listView } from './screens/content-list/search';
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

const mediaRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/media',
  validateSearch: MediaSearch,
  component: lazyRouteComponent(() => import('./screens/media/MediaScreen'), 'MediaScreen'),
});

const routeTree = rootRoute.addChildren([dashboardRoute, contentListRoute, mediaRoute]);

export function createPanelRouter(queryClient: QueryClient) {
  return createRouter({ routeTree, basepath: '/_cms/admin', context: { queryClient }, defaultPreload: 'intent', scrollRestoration: true });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createPanelRouter>;
  }
}
