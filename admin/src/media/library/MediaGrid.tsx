import { useInfiniteQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { mediaListQuery, type MediaFilter } from '../../api/queries';
import { useT } from '../../i18n/i18n';
import type { MediaItem } from '../pick';

/** A tile's width at least, and its row's height, in CSS pixels. */
const tileWidth = 168;
const rowHeight = 208;
/** How close to the last loaded row the next page is asked for, in rows. */
const prefetchRows = 4;

/** Folio's file route, resized on the server: a grid of thumbnails, not of originals. */
export function thumbnailUrl(item: MediaItem, side = 320): string {
  const path = item.storageKey.split('/').map(encodeURIComponent).join('/');
  return `/_cms/api/media/file/${path}?w=${side}&h=${side}&fit=cover&format=webp`;
}

export const isImage = (item: MediaItem) => item.mimeType.startsWith('image/') && item.width !== null;

/**
 * The library as a grid of tiles, rows virtualized (TanStack Virtual) and pages loaded as the end
 * comes near. A tile is a button: it opens the item's details, or picks it in the picker.
 */
export function MediaGrid({ filter, label, onOpen }: { filter: MediaFilter; label: string; onOpen: (item: MediaItem) => void }) {
  const t = useT();
  const list = useInfiniteQuery(mediaListQuery(filter));
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const scroller = useRef<HTMLDivElement>(null);
  const [columns, setColumns] = useState(4);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setColumns(Math.max(1, Math.floor((entry?.contentRect.width ?? tileWidth) / tileWidth))));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const rowCount = Math.ceil(items.length / columns);
  const virtualizer = useVirtualizer({ count: rowCount, getScrollElement: () => scroller.current, estimateSize: () => rowHeight, overscan: 3 });
  const visible = virtualizer.getVirtualItems();
  const last = visible.at(-1)?.index ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && last >= rowCount - prefetchRows) void fetchNextPage();
  }, [last, rowCount, hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <div ref={scroller} className="media-scroller" tabIndex={-1}>
      <div role="list" aria-label={label} className="media-grid" style={{ blockSize: virtualizer.getTotalSize(), ['--media-columns' as string]: String(columns) }}>
        {visible.map((row) => (
          <div role="none" key={row.key} className="media-row" style={{ transform: `translateY(${row.start}px)` }}>
            {items.slice(row.index * columns, row.index * columns + columns).map((item, offset) => (
              <div role="listitem" key={item.id} aria-posinset={row.index * columns + offset + 1} aria-setsize={hasNextPage ? -1 : items.length} className="media-tile">
                <button type="button" className="media-tile-button" onClick={() => onOpen(item)}>
                  {isImage(item) ? <img src={thumbnailUrl(item)} alt="" loading="lazy" /> : <span className="media-kind">{item.mimeType}</span>}
                  <span className="media-name">{item.title ?? item.filename}</span>
                </button>
              </div>
            ))}
          </div>
        ))}
      </div>
      {list.isPending && <p className="list-note">{t('loading')}</p>}
      {list.isError && <p className="list-note" role="alert">{list.error.message}</p>}
      {list.isSuccess && items.length === 0 && <p className="list-note">{t('media.empty')}</p>}
      {isFetchingNextPage && (
        <p className="list-note" role="status">
          {t('list.loadingMore')}
        </p>
      )}
    </div>
  );
}
