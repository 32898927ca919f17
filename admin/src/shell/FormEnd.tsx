import type { ReactNode } from 'react';
import { Button } from 'react-aria-components';

interface Props {
  /** A refusal naming no field, said once above the buttons. */
  refusal: string | undefined;
  submitLabel: string;
  pending: boolean;
  /** Beside the submit button (a dialog's Cancel). */
  extra?: ReactNode;
}

/** The end of a form: what the server refused that no field shows, then its submit button and any other. */
export function FormEnd({ refusal, submitLabel, pending, extra }: Props) {
  return (
    <>
      {refusal && <p role="alert">{refusal}</p>}
      <div className="dialog-buttons">
        <Button type="submit" className="react-aria-Button primary" isDisabled={pending}>
          {submitLabel}
        </Button>
        {extra}
      </div>
    </>
  );
}
