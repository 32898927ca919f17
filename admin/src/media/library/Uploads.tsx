import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Button, DropZone, FileTrigger, Text, isFileDropItem, type DropZoneProps } from 'react-aria-components';
import { useT } from '../../i18n/i18n';
import { uploadFile } from './upload';

type DropEvent = Parameters<NonNullable<DropZoneProps['onDrop']>>[0];

interface Upload {
  key: number;
  name: string;
  /** 0 to 1 while sending. */
  sent: number;
  state: 'waiting' | 'sending' | 'done' | 'refused';
  message?: string;
}

/** Files sent at once: enough to keep the connection busy, few enough that each shows progress. */
const parallelUploads = 3;

/**
 * Drop many files, or choose them with the keyboard (FileTrigger), and each is sent with its own
 * progress; a file the API refuses (type, size) is named with the API's reason while the others go on.
 */
export function Uploads({ accept }: { accept?: string[] }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const nextKey = useRef(0);

  const change = (key: number, patch: Partial<Upload>) => setUploads((list) => list.map((upload) => (upload.key === key ? { ...upload, ...patch } : upload)));

  const send = (files: File[]) => {
    if (files.length === 0) return;
    const added = files.map((file) => ({ file, key: nextKey.current++ }));
    setUploads((list) => [...added.map(({ file, key }) => ({ key, name: file.name, sent: 0, state: 'waiting' as const })), ...list]);
    const queue = [...added];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const { file, key } = next;
        change(key, { state: 'sending' });
        const result = await uploadFile(file, (sent) => change(key, { sent }));
        if (result.ok) change(key, { state: 'done', sent: 1 });
        else change(key, { state: 'refused', message: result.message || t('media.uploadFailed') });
        // Each file shows in the grid as soon as it is stored.
        if (result.ok) void queryClient.invalidateQueries({ queryKey: ['media', 'list'] });
      }
    };
    for (let i = 0; i < Math.min(parallelUploads, added.length); i++) void worker();
  };

  const onDrop = async (event: DropEvent) => {
    const files = await Promise.all(event.items.filter(isFileDropItem).map((item) => item.getFile()));
    send(files);
  };

  const finished = uploads.filter((upload) => upload.state === 'done').length;
  return (
    <div className="media-uploads">
      <DropZone className="media-drop" onDrop={(event) => void onDrop(event)} aria-label={t('media.dropLabel')}>
        <Text slot="label">{t('media.drop')}</Text>
        <FileTrigger allowsMultiple acceptedFileTypes={accept} onSelect={(list) => send(list ? [...list] : [])}>
          <Button>{t('media.choose')}</Button>
        </FileTrigger>
      </DropZone>
      {uploads.length > 0 && (
        <section className="media-upload-list" aria-label={t('media.uploads')}>
          <p role="status">{t('media.uploadedCount', { done: finished, total: uploads.length })}</p>
          <ul>
            {uploads.map((upload) => (
              <li key={upload.key} className={`upload upload-${upload.state}`}>
                <span className="upload-name">{upload.name}</span>
                {upload.state === 'refused' ? (
                  <span className="upload-error">{t('media.refused', { reason: upload.message })}</span>
                ) : (
                  <progress max={1} value={upload.sent} aria-label={t('media.progress', { name: upload.name })} />
                )}
                {upload.state === 'done' && <span className="upload-done">{t('media.uploaded')}</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
