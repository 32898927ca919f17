import type { BlockObjectRenderProps, PortableTextObject } from '@portabletext/editor';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, ApiError, dataOf } from '../../api/client';
import { useT } from '../../i18n/i18n';
import { useEditorDialogs } from '../dialogs';
import { imageType } from '../schema';

/**
 * An image or file block. Blocks inserted from the library carry the item's `id` beside its `url`
 * (the shape of image and file field values, src/content/media-values.ts); imported ones may have a
 * `url` only. A library item deleted since is shown as missing, and the block is left as it is.
 */
export function MediaCard({ attributes, children, node, selected }: BlockObjectRenderProps) {
  return (
    <div {...attributes} className="pt-object">
      {children}
      <div contentEditable={false} className="pt-card pt-media-card" data-selected={selected || undefined}>
        {node._type === imageType ? <ImageBody node={node} /> : <FileBody node={node} />}
      </div>
    </div>
  );
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The library item's state: missing only on a 404, so a failed request for another reason does not claim it. */
function useMissing(node: PortableTextObject): boolean {
  const id = text(node.id);
  const item = useQuery({
    queryKey: ['media', id],
    queryFn: () => dataOf(api.GET('/_cms/api/media/{id}', { params: { path: { id } } })),
    enabled: id !== '',
    retry: false,
    staleTime: 60_000,
  });
  return item.error instanceof ApiError && item.error.status === 404;
}

/** A small rendition from the library's transforms when the image is the library's; its own address otherwise. */
function thumbnailOf(node: PortableTextObject): string {
  const url = text(node.url);
  if (text(node.id) === '' || url === '') return url;
  try {
    const thumbnail = new URL(url, window.location.href);
    thumbnail.searchParams.set('w', '480');
    thumbnail.searchParams.set('h', '320');
    thumbnail.searchParams.set('fit', 'inside');
    return thumbnail.href;
  } catch {
    return url;
  }
}

function ImageBody({ node }: { node: PortableTextObject }) {
  const t = useT();
  const { open } = useEditorDialogs();
  const missing = useMissing(node);
  const [broken, setBroken] = useState(false);
  const alt = text(node.alt);
  const label = t('pt.image.label');
  return (
    <figure className="pt-figure" role="group" aria-label={label}>
      {missing ? (
        <p className="pt-missing">{t('pt.media.missing', { url: text(node.url) || text(node.id) })}</p>
      ) : broken || text(node.url) === '' ? (
        <p className="pt-missing">{t('pt.image.broken', { url: text(node.url) })}</p>
      ) : (
        <img className="pt-thumbnail" src={thumbnailOf(node)} alt={alt} onError={() => setBroken(true)} />
      )}
      <figcaption>
        <span className="pt-card-type">{label}</span>
        <span className="pt-alt">{alt ? t('pt.image.altShown', { alt }) : t('pt.image.noAlt')}</span>
        <Button onPress={() => open({ kind: 'alt', block: node })}>{t('pt.image.editAlt')}</Button>
      </figcaption>
    </figure>
  );
}

function FileBody({ node }: { node: PortableTextObject }) {
  const t = useT();
  const missing = useMissing(node);
  const name = text(node.filename) || text(node.title) || text(node.url);
  return (
    <div className="pt-file" role="group" aria-label={t('pt.file.label', { name })}>
      <span className="pt-card-type">{t('pt.file.label', { name })}</span>
      {missing ? <p className="pt-missing">{t('pt.media.missing', { url: name })}</p> : text(node.mimeType) ? <span className="pt-card-summary">{text(node.mimeType)}</span> : null}
    </div>
  );
}
