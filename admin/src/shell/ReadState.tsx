import { useT } from '../i18n/i18n';
import { messageOf } from './notice';

/** What a screen needs of a query to say how its read went. */
export interface Read {
  isPending: boolean;
  isError: boolean;
  error: unknown;
}

/** What a screen says while its read has nothing to show: that it is loading, or why it failed. */
export function ReadState({ read }: { read: Read }) {
  const t = useT();
  return (
    <>
      {read.isError && <p role="alert">{messageOf(read.error)}</p>}
      {read.isPending && <p>{t('loading')}</p>}
    </>
  );
}
