import { Button } from 'react-aria-components';
import { useT } from '../../i18n/i18n';
import type { SessionState } from './session';

/** Where the edits are: a polite live region, so a screen reader hears "Saved" without losing its place; failures are alerts. */
export function SaveStatus({ state, onRetry }: { state: SessionState; onRetry: () => void }) {
  const t = useT();
  const failed = state.save === 'failed' || state.save === 'invalid';
  return (
    <div className="save-status">
      <p role="status" className={`save-state save-${state.save}`}>
        {t(`editor.save.${state.save}`)}
      </p>
      {state.message !== undefined && (
        <div role="alert" className="save-message">
          <p>{state.message}</p>
          {failed && <Button onPress={onRetry}>{t('error.retry')}</Button>}
        </div>
      )}
    </div>
  );
}
