import type { FormEvent, ReactNode } from 'react';
import { Button, Dialog, Form, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useT } from '../i18n/i18n';

/** A small modal form (React Aria: focus kept inside, Escape closes, focus goes back where it was). */
export function FormDialog({
  title,
  isOpen,
  onClose,
  onSubmit,
  submitLabel,
  extraAction,
  children,
}: {
  title: string;
  isOpen: boolean;
  onClose: () => void;
  onSubmit: () => void;
  submitLabel: string;
  extraAction?: ReactNode;
  children: ReactNode;
}) {
  const t = useT();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <ModalOverlay className="pt-dialog-overlay" isOpen={isOpen} onOpenChange={(open) => open || onClose()} isDismissable>
      <Modal className="pt-dialog">
        <Dialog>
          <Heading slot="title">{title}</Heading>
          <Form onSubmit={submit}>
            {children}
            <div className="pt-dialog-actions">
              <Button type="submit" className="react-aria-Button pt-primary">
                {submitLabel}
              </Button>
              {extraAction}
              <Button onPress={onClose}>{t('pt.cancel')}</Button>
            </div>
          </Form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
