import type { ErrorComponentProps } from '@tanstack/react-router';
import { Button } from 'react-aria-components';
import { useT } from '../i18n/i18n';

/** A screen that failed says what went wrong and offers to try again; the rest of the panel stays. */
export function ErrorScreen({ error, reset }: ErrorComponentProps) {
  const t = useT();
  return (
    <section className="problem" role="alert">
      <h1>{t('error.title')}</h1>
      <p>{error instanceof Error ? error.message : String(error)}</p>
      <Button onPress={reset}>{t('error.retry')}</Button>
    </section>
  );
}

export function NotFoundScreen({ message }: { message?: string }) {
  const t = useT();
  return (
    <section className="problem">
      <h1>{t('notFound.title')}</h1>
      <p>{message ?? t('notFound.body')}</p>
    </section>
  );
}
