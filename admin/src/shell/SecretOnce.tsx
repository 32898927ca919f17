import { useState } from 'react';
import { Button } from 'react-aria-components';
import { useT } from '../i18n/i18n';

interface Props {
  title: string;
  body: string;
  /** The field's accessible name ("The new token"). */
  label: string;
  secret: string;
  onDone: () => void;
}

/**
 * A secret the server shows once (a token, a webhook's signing secret): in a read-only field, selected
 * when focused so it can be copied by hand, with a button that copies it; Done forgets it.
 */
export function SecretOnce({ title, body, label, secret, onDone }: Props) {
  const t = useT();
  const [copied, setCopied] = useState<'yes' | 'refused'>();
  const copy = () =>
    navigator.clipboard.writeText(secret).then(
      () => setCopied('yes'),
      () => setCopied('refused'),
    );
  return (
    <div className="secret-once" role="group" aria-label={title}>
      <h3>{title}</h3>
      <p>{body}</p>
      <div className="secret-once-line">
        <input className="field-input" readOnly value={secret} aria-label={label} onFocus={(event) => event.target.select()} />
        <Button onPress={() => void copy()}>{t('secret.copy')}</Button>
        <Button onPress={onDone}>{t('secret.done')}</Button>
      </div>
      <p role="status">{copied === 'yes' ? t('secret.copied') : copied === 'refused' ? t('secret.copyFailed') : ''}</p>
    </div>
  );
}
