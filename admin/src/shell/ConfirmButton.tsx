import { useMutation } from '@tanstack/react-query';
import { Button, Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useT } from '../i18n/i18n';

interface Props {
  /** The button's text, and its accessible name when that must say more ("Revoke CI deploy"). */
  label: string;
  ariaLabel?: string;
  triggerClassName?: string;
  title: string;
  /** What the action destroys, said before it runs. */
  body: string;
  confirmLabel: string;
  /** What the confirming button says while the action runs. */
  pendingLabel?: string;
  /** Danger (red) for what destroys; primary for what only replaces (a restored revision). */
  tone?: 'danger' | 'primary';
  /** Runs when confirmed; the dialog closes once it resolves, and says why where it rejects. */
  onConfirm: () => Promise<unknown>;
}

/**
 * A button whose action (delete a passkey, revoke a token, restore a revision) is confirmed in a modal
 * alert dialog first. React Aria keeps focus inside and brings it back to the button; Cancel has it
 * first, so Enter never destroys anything by accident. A refusal is said inside the dialog, where the
 * person is looking.
 */
export function ConfirmButton({ label, ariaLabel, triggerClassName = 'react-aria-Button', title, body, confirmLabel, pendingLabel = confirmLabel, tone = 'danger', onConfirm }: Props) {
  const t = useT();
  const run = useMutation({ mutationFn: onConfirm });
  return (
    <DialogTrigger onOpenChange={(open) => (open ? run.reset() : undefined)}>
      <Button className={triggerClassName} aria-label={ariaLabel}>
        {label}
      </Button>
      <ModalOverlay className="dialog-overlay" isDismissable>
        <Modal className="dialog-modal">
          <Dialog role="alertdialog">
            {({ close }) => (
              <>
                <Heading slot="title">{title}</Heading>
                <p>{body}</p>
                {run.isError && <p role="alert">{run.error.message}</p>}
                <div className="dialog-buttons">
                  <Button className={`react-aria-Button ${tone}`} isDisabled={run.isPending} onPress={() => run.mutate(undefined, { onSuccess: close })}>
                    {run.isPending ? pendingLabel : confirmLabel}
                  </Button>
                  <Button onPress={close} autoFocus>
                    {t('dialog.cancel')}
                  </Button>
                </div>
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
