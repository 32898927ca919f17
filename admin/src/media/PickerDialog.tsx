import { useState } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useT } from '../i18n/i18n';
import { MediaLibrary } from './library/MediaLibrary';
import type { LibraryView } from './library/types';
import type { MediaItem } from './pick';

/** The library as a dialog: a tile picks its item; uploads work inside it as on the screen. */
export function PickerDialog({ accept, onSettle }: { accept: 'image' | 'any'; onSettle: (item: MediaItem | undefined) => void }) {
  const t = useT();
  const [view, setView] = useState<LibraryView>({});
  return (
    <ModalOverlay className="modal-overlay" isOpen isDismissable onOpenChange={(open) => !open && onSettle(undefined)}>
      <Modal className="modal media-picker-modal">
        <Dialog className="dialog">
          <div className="dialog-head">
            <Heading slot="title">{t(accept === 'image' ? 'media.pickImage' : 'media.pickFile')}</Heading>
            <Button onPress={() => onSettle(undefined)}>
              {t('media.close')}
            </Button>
          </div>
          <MediaLibrary view={view} onViewChange={setView} onPick={onSettle} imagesOnly={accept === 'image'} />
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
