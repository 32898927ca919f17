import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import type { ContentCollection } from '../../api/client';
import { runBulkAction, type BulkAction } from '../../api/queries';
import { useT } from '../../i18n/i18n';

type Results = Awaited<ReturnType<typeof runBulkAction>>;

interface Props {
  collection: ContentCollection;
  action: BulkAction;
  ids: string[];
  onClose: () => void;
  onDone: (results: Results) => void;
}

/**
 * "Move 50 entries to the trash?": the count named before anything happens. Confirmed, the action runs
 * through the API's bulk endpoint, the lists and counts are read again, and the outcome goes back to
 * the list; an error of the whole call stays in the dialog.
 */
export default function BulkConfirm({ collection, action, ids, onClose, onDone }: Props) {
  const t = useT();
  const queryClient = useQueryClient();
  const run = useMutation({
    mutationFn: () => runBulkAction(collection.slug, action, ids),
    onSuccess: async (results) => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['entries', collection.slug] }), queryClient.invalidateQueries({ queryKey: ['collections', 'counts'] })]);
      onDone(results);
    },
  });
  return (
    <ModalOverlay className="dialog-overlay" isOpen isDismissable={!run.isPending} onOpenChange={(open) => !open && onClose()}>
      <Modal className="dialog-modal">
        <Dialog role="alertdialog">
          <Heading slot="title">{t(`bulk.confirm.${action}`, { count: ids.length })}</Heading>
          <p>{t(`bulk.explain.${action}`, { collection: collection.label })}</p>
          {run.isError && (
            <p role="alert">
              {run.error.message}
            </p>
          )}
          {/* Disabled while working, not React Aria's isPending: its announcement points at the button, which leaves with the dialog (axe: role-img-alt). */}
          <div className="dialog-buttons">
            <Button onPress={onClose} isDisabled={run.isPending}>
              {t('bulk.cancel')}
            </Button>
            <Button className={action === 'delete' || action === 'trash' ? 'react-aria-Button danger' : 'react-aria-Button primary'} onPress={() => run.mutate()} isDisabled={run.isPending}>
              {run.isPending ? t('bulk.working') : t(`bulk.${action}`)}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
