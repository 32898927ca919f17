import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import { useT } from '../../i18n/i18n';
import { MediaLibrary } from '../../media/library/MediaLibrary';
import type { LibraryView } from '../../media/library/types';

// Typed by the route's declaration in router.tsx, without importing the router back into this chunk.
const mediaRoute = getRouteApi('/media');

/** The media library as a screen: its search and type in the URL, so a view can be shared. */
export function MediaScreen() {
  const t = useT();
  const view = mediaRoute.useSearch();
  const navigate = mediaRoute.useNavigate();
  const change = useCallback((next: LibraryView) => void navigate({ search: { q: next.q, type: next.type } }), [navigate]);
  return (
    <>
      <h1>{t('media.heading')}</h1>
      <MediaLibrary view={view} onViewChange={change} />
    </>
  );
}
