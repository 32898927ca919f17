import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Dialog, DialogTrigger, Form, Heading, Input, Label, Modal, ModalOverlay, TextField } from 'react-aria-components';
import { api, dataOf, type Schemas } from '../../api/client';
import { useT } from '../../i18n/i18n';
import { ConfirmButton } from '../../shell/ConfirmButton';
import { messageOf, type Notice } from '../../shell/notice';
import { passkeysQuery } from './queries';

type Passkey = Schemas['Passkey'];

/**
 * Renaming and deleting a passkey each happen in a modal dialog (deleting in shell/ConfirmButton) (React Aria: focus kept inside, Escape
 * closes, focus back on the button that opened it). A refusal (the last way in cannot be deleted) is
 * said inside the dialog, where the person is looking.
 */
export function RenamePasskeyDialog({ passkey, onNotice }: { passkey: Passkey; onNotice: (notice: Notice) => void }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [name, setName] = useState(passkey.name);
  const rename = useMutation({
    mutationFn: () => dataOf(api.PATCH('/_cms/api/auth/passkey/{id}', { params: { path: { id: passkey.id } }, body: { name } })),
  });
  return (
    <DialogTrigger onOpenChange={(open) => (open ? (setName(passkey.name), rename.reset()) : undefined)}>
      <Button aria-label={t('account.renameLabel', { name: passkey.name })}>{t('account.rename')}</Button>
      <ModalOverlay className="dialog-overlay" isDismissable>
        <Modal className="dialog-modal">
          <Dialog>
            {({ close }) => (
              <Form
                onSubmit={(event) => {
                  event.preventDefault();
                  rename.mutate(undefined, {
                    onSuccess: async ({ item }) => {
                      await queryClient.invalidateQueries({ queryKey: passkeysQuery.queryKey });
                      onNotice({ kind: 'done', text: t('account.renamed', { name: item.name }) });
                      close();
                    },
                  });
                }}
              >
                <Heading slot="title">{t('account.renameTitle', { name: passkey.name })}</Heading>
                <TextField value={name} onChange={setName} isRequired maxLength={100} autoFocus>
                  <Label>{t('account.newName')}</Label>
                  <Input />
                </TextField>
                {rename.isError && <p role="alert">{messageOf(rename.error)}</p>}
                <div className="dialog-buttons">
                  <Button type="submit" isDisabled={rename.isPending}>
                    {t('account.save')}
                  </Button>
                  <Button onPress={close}>{t('account.cancel')}</Button>
                </div>
              </Form>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}

export function DeletePasskeyDialog({ passkey, onNotice }: { passkey: Passkey; onNotice: (notice: Notice) => void }) {
  const t = useT();
  const queryClient = useQueryClient();
  return (
    <ConfirmButton
      label={t('account.delete')}
      ariaLabel={t('account.deleteLabel', { name: passkey.name })}
      title={t('account.deleteTitle', { name: passkey.name })}
      body={t('account.deleteBody')}
      confirmLabel={t('account.deleteConfirm')}
      onConfirm={async () => {
        await dataOf(api.DELETE('/_cms/api/auth/passkey/{id}', { params: { path: { id: passkey.id } }, body: {} }));
        await queryClient.invalidateQueries({ queryKey: passkeysQuery.queryKey });
        onNotice({ kind: 'done', text: t('account.deleted', { name: passkey.name }) });
      }}
    />
  );
}
