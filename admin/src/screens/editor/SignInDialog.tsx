import { Button, Dialog, Heading, Modal } from 'react-aria-components';
import { signInLocation } from '../../api/client';
import { useT } from '../../i18n/i18n';
import type { SessionState } from './session';

/**
 * The session ended while editing: sign in again in another window (the sign-in page, which keeps
 * this one and its edits as they are), then retry here. The edits stay in the form and in the browser.
 */
export function SignInDialog({ state, onRetry }: { state: SessionState; onRetry: () => void }) {
  const t = useT();
  const open = state.save === 'signed-out';
  const signIn = () => window.open(signInLocation(window.location.pathname + window.location.search), '_blank', 'noopener');
  return (
    <Modal isOpen={open} isDismissable={false} className="editor-modal">
      <Dialog className="editor-dialog" role="alertdialog">
        <Heading slot="title">{t('editor.session.title')}</Heading>
        <p>{t('editor.session.ended')}</p>
        <div className="field-actions">
          <Button onPress={signIn}>{t('editor.session.signIn')}</Button>
          <Button onPress={onRetry}>{t('editor.session.retry')}</Button>
        </div>
      </Dialog>
    </Modal>
  );
}
