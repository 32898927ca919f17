import type { ReactNode } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useT } from '../i18n/i18n';

interface Props<T> {
  /** What is being changed; the dialog is open while there is something. */
  editing: T | undefined;
  onClose: () => void;
  title: (editing: T) => string;
  /** The form, given what is changed, a way to close the dialog, and its Cancel button to show beside its own. */
  children: (editing: T, close: () => void, cancel: ReactNode) => ReactNode;
}

/** A modal dialog holding the form that changes one thing (a field, a menu item); Escape or Cancel closes it unchanged. */
export function EditDialog<T>({ editing, onClose, title, children }: Props<T>) {
  const t = useT();
  return (
    <ModalOverlay className="dialog-overlay" isDismissable isOpen={editing !== undefined} onOpenChange={(open) => (open ? undefined : onClose())}>
      <Modal className="dialog-modal">
        <Dialog>
          {({ close }) =>
            editing !== undefined && (
              <>
                <Heading slot="title">{title(editing)}</Heading>
                {children(editing, close, <Button onPress={close}>{t('dialog.cancel')}</Button>)}
              </>
            )
          }
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
