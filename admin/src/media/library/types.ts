import type { MediaFilter } from '../../api/queries';

/** The type filter's choices, each a MIME type prefix GET /media filters by. */
export const mediaTypes = ['image', 'video', 'audio', 'document'] as const;
export type MediaType = (typeof mediaTypes)[number];

/** Documents are `application/` (PDF, office files, archives): a prefix is what the API filters by. */
const prefixes: Record<MediaType, string> = { image: 'image/', video: 'video/', audio: 'audio/', document: 'application/' };

/** What the library shows: the search text and the type, as a screen's URL or the picker's state holds them. */
export interface LibraryView {
  q?: string;
  type?: MediaType;
}

export function mediaFilter(view: LibraryView): MediaFilter {
  return { ...(view.q ? { q: view.q } : {}), ...(view.type ? { mimeType: prefixes[view.type] } : {}) };
}
