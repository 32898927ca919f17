/**
 * Where a form field's refusal is said: always there (empty until the server names the field), so the
 * field can point at it with aria-describedby and a screen reader reads it with the field.
 */
export function FieldIssue({ id, message }: { id: string; message: string | undefined }) {
  return (
    <p id={id} className="setting-error">
      {message ?? ''}
    </p>
  );
}
