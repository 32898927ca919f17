import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Dialog, Heading, Input, Label, Modal, ModalOverlay, TextArea, TextField } from 'react-aria-components';
import { api, dataOf } from '../../api/client';
import { mediaUsageQuery } from '../../api/queries';
import { useDateFormat, useT } from '../../i18n/i18n';
import type { MediaItem } from '../pick';
import { isImage, thumbnailUrl } from './MediaGrid';

/** An item's details in a dialog: its description edited (PUT /media/:id), its facts, and deleting it. */
export function MediaDetails({ item, onClose }: { item: MediaItem; onClose: () => void }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <ModalOverlay className="modal-overlay" isOpen isDismissable onOpenChange={(open) => !open && onClose()}>
      <Modal className="modal media-details-modal">
        <Dialog className="dialog">
          {confirming ? <ConfirmDelete item={item} onCancel={() => setConfirming(false)} onDeleted={onClose} /> : <Describe item={item} onClose={onClose} onDelete={() => setConfirming(true)} />}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

const orNull = (value: string) => (value.trim() === '' ? null : value);

function Describe({ item, onClose, onDelete }: { item: MediaItem; onClose: () => void; onDelete: () => void }) {
  const t = useT();
  const formatDate = useDateFormat();
  const queryClient = useQueryClient();
  const [alt, setAlt] = useState(item.alt ?? '');
  const [caption, setCaption] = useState(item.caption ?? '');
  const [title, setTitle] = useState(item.title ?? '');
  const save = useMutation({
    mutationFn: () => dataOf(api.PUT('/_cms/api/media/{id}', { params: { path: { id: item.id } }, body: { alt: orNull(alt), caption: orNull(caption), title: orNull(title) } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['media', 'list'] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <>
      <Heading slot="title">{item.title ?? item.filename}</Heading>
      <div className="media-details">
        {isImage(item) && <img className="media-preview" src={thumbnailUrl(item, 640)} alt={item.alt ?? ''} />}
        <dl className="media-facts">
          <dt>{t('media.fact.file')}</dt>
          <dd>{item.filename}</dd>
          <dt>{t('media.fact.type')}</dt>
          <dd>{item.mimeType}</dd>
          <dt>{t('media.fact.size')}</dt>
          <dd>{t('media.bytes', { size: item.size })}</dd>
          {item.width !== null && item.height !== null && (
            <>
              <dt>{t('media.fact.dimensions')}</dt>
              <dd>{t('media.pixels', { width: item.width, height: item.height })}</dd>
            </>
          )}
          <dt>{t('media.fact.uploaded')}</dt>
          <dd>{formatDate(item.createdAt)}</dd>
          <dt>{t('media.fact.url')}</dt>
          <dd>
            <a href={item.url}>{t('media.open')}</a>
          </dd>
        </dl>
      </div>
      <form className="media-form" onSubmit={submit}>
        <TextField value={alt} onChange={setAlt} maxLength={1000}>
          <Label>{t('media.alt')}</Label>
          <Input />
        </TextField>
        <TextField value={title} onChange={setTitle} maxLength={500}>
          <Label>{t('media.title')}</Label>
          <Input />
        </TextField>
        <TextField value={caption} onChange={setCaption} maxLength={5000}>
          <Label>{t('media.caption')}</Label>
          <TextArea rows={3} />
        </TextField>
        <p role="status" className="form-status">
          {save.isSuccess && t('media.saved')}
        </p>
        {save.isError && <p role="alert" className="form-error">{save.error.message}</p>}
        <div className="dialog-actions">
          <Button type="submit" className="react-aria-Button button-primary" isDisabled={save.isPending}>
            {t('media.save')}
          </Button>
          <Button className="react-aria-Button button-danger" onPress={onDelete}>
            {t('media.delete')}
          </Button>
          <Button onPress={onClose}>
            {t('media.close')}
          </Button>
        </div>
      </form>
    </>
  );
}

/** The warning before a delete names the entries that show the file: they keep a reference to nothing. */
function ConfirmDelete({ item, onCancel, onDeleted }: { item: MediaItem; onCancel: () => void; onDeleted: () => void }) {
  const t = useT();
  const queryClient = useQueryClient();
  const usage = useQuery(mediaUsageQuery(item.id));
  const remove = useMutation({
    mutationFn: () => dataOf(api.DELETE('/_cms/api/media/{id}', { params: { path: { id: item.id } }, body: {} })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['media', 'list'] });
      onDeleted();
    },
  });
  return (
    <>
      <Heading slot="title">{t('media.deleteTitle', { name: item.title ?? item.filename })}</Heading>
      {usage.isPending && <p>{t('loading')}</p>}
      {usage.isError && <p role="alert">{usage.error.message}</p>}
      {usage.data && usage.data.total === 0 && <p>{t('media.unused')}</p>}
      {usage.data && usage.data.total > 0 && (
        <div role="alert" className="media-usage-warning">
          <p>{t('media.usedBy', { count: usage.data.total })}</p>
          <ul>
            {usage.data.items.map((entry) => (
              <li key={entry.id}>
                {t('media.usedIn', { title: entry.title, collection: entry.collection, fields: entry.fields.map((field) => (field === '_seo' ? t('media.usedAsSeoImage') : field)).join(', ') })}
                {entry.deletedAt !== null && ` ${t('media.inTrash')}`}
              </li>
            ))}
          </ul>
        </div>
      )}
      {remove.isError && <p role="alert" className="form-error">{remove.error.message}</p>}
      <div className="dialog-actions">
        <Button className="react-aria-Button button-danger" onPress={() => remove.mutate()} isDisabled={usage.isPending || remove.isPending}>
          {t('media.deleteForGood')}
        </Button>
        <Button onPress={onCancel} autoFocus>
          {t('media.keep')}
        </Button>
      </div>
    </>
  );
}
