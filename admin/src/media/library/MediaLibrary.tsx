import { useEffect, useState } from 'react';
import { Input, Label, Radio, RadioGroup, SearchField } from 'react-aria-components';
import { useT } from '../../i18n/i18n';
import type { MediaItem } from '../pick';
import { MediaDetails } from './MediaDetails';
import { MediaGrid } from './MediaGrid';
import { mediaFilter, mediaTypes, type LibraryView, type MediaType } from './types';
import { Uploads } from './Uploads';
import './media.css';

/** Typing pauses this long before the search is sent: one request per word, not per key. */
const searchDelay = 250;

/**
 * The library: search, type filter, uploads and the grid; a tile opens the item's details. The media
 * screen keeps the view in its URL; the picker keeps it in its own state, and there a tile picks the
 * item (`onPick`), the type fixed to images when the widget takes only images.
 */
export function MediaLibrary({ view, onViewChange, onPick, imagesOnly = false }: { view: LibraryView; onViewChange: (view: LibraryView) => void; onPick?: (item: MediaItem) => void; imagesOnly?: boolean }) {
  const t = useT();
  const [text, setText] = useState(view.q ?? '');
  const [open, setOpen] = useState<MediaItem | undefined>();
  useEffect(() => {
    if (text === (view.q ?? '')) return;
    const timer = setTimeout(() => onViewChange({ ...view, q: text.trim() === '' ? undefined : text.trim() }), searchDelay);
    return () => clearTimeout(timer);
  }, [text, view, onViewChange]);
  const shown: LibraryView = imagesOnly ? { ...view, type: 'image' } : view;

  return (
    <div className="media-library">
      <div className="media-tools">
        <SearchField className="media-search" value={text} onChange={setText} onSubmit={(value) => onViewChange({ ...view, q: value.trim() || undefined })}>
          <Label>{t('media.search')}</Label>
          <Input />
        </SearchField>
        {!imagesOnly && (
          <RadioGroup className="status-filter" orientation="horizontal" value={view.type ?? 'all'} onChange={(value) => onViewChange({ ...view, type: value === 'all' ? undefined : (value as MediaType) })}>
            <Label>{t('media.type')}</Label>
            <Radio value="all">{t('media.type.all')}</Radio>
            {mediaTypes.map((type) => (
              <Radio key={type} value={type}>
                {t(`media.type.${type}`)}
              </Radio>
            ))}
          </RadioGroup>
        )}
      </div>
      <Uploads accept={imagesOnly ? ['image/*'] : undefined} />
      <MediaGrid filter={mediaFilter(shown)} label={t('media.items')} onOpen={(item) => (onPick ? onPick(item) : setOpen(item))} />
      {open && <MediaDetails key={open.id} item={open} onClose={() => setOpen(undefined)} />}
    </div>
  );
}
