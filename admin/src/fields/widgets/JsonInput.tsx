import { useState } from 'react';
import { useT } from '../../i18n/i18n';
import type { FieldInputProps } from '../input';

/**
 * json fields: the value as indented JSON text, checked as it is typed. While the text does not
 * parse the field says why, right there, and the value stays the last one that did (nothing half
 * typed is sent); the text itself is kept as typed.
 */
export function JsonInput(props: FieldInputProps<unknown>) {
  const t = useT();
  const [text, setText] = useState(() => jsonText(props.value));
  const [problem, setProblem] = useState<string | undefined>();
  // The value the text stands for. When the value changes from outside (a draft discarded, a conflict
  // resolved, edits restored), the text follows; while typing, it is the one that changes the value.
  const [shownValue, setShownValue] = useState<unknown>(props.value);
  if (shownValue !== props.value) {
    setShownValue(props.value);
    if (JSON.stringify(props.value ?? null) !== JSON.stringify(parsedOrUndefined(text) ?? null)) {
      setText(jsonText(props.value));
      setProblem(undefined);
    }
  }
  const problemId = `${props.id}-parse`;
  const described = [problem !== undefined ? problemId : undefined, props.error !== undefined ? props.errorId : undefined].filter(Boolean).join(' ');
  return (
    <>
      <textarea
        id={props.id}
        className="field-input field-code"
        rows={8}
        spellCheck={false}
        readOnly={props.readOnly}
        value={text}
        aria-invalid={problem !== undefined || props.error !== undefined ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(event) => {
          const typed = event.target.value;
          setText(typed);
          if (typed.trim() === '') {
            setProblem(undefined);
            props.onChange(undefined);
            return;
          }
          try {
            const parsed: unknown = JSON.parse(typed);
            setProblem(undefined);
            props.onChange(parsed);
          } catch (error) {
            setProblem(error instanceof Error ? error.message : String(error));
          }
        }}
      />
      {problem !== undefined && (
        <p id={problemId} className="field-error">
          {t('editor.json.invalid', { problem })}
        </p>
      )}
    </>
  );
}

function jsonText(value: unknown): string {
  return value === undefined || value === null ? '' : JSON.stringify(value, null, 2);
}

function parsedOrUndefined(text: string): unknown {
  try {
    return text.trim() === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
