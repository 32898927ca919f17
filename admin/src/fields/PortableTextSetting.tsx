import { useRef, useState } from 'react';
import { FieldIssue } from '../shell/FieldIssue';
import { labelIdOf } from './input';
import { fieldsSettled } from './settling';
import { standaloneField } from './standalone';
import { widgets } from './widgets/registry';

/**
 * A Portable Text value in a form of its own (a section's content, a widget's text). The editor
 * hands its typing over a moment after the last key (fields/settling.ts), later than the render a
 * submit sees: `settled` waits for that and gives what was handed over last, so a save sends the
 * last words typed, not the render's.
 */
export function usePortableTextValue(initial: unknown[]) {
  const [value, setValue] = useState(initial);
  const latest = useRef(initial);
  const change = (next: unknown[] | undefined) => {
    latest.current = next ?? [];
    setValue(next ?? []);
  };
  const settled = async () => {
    await fieldsSettled();
    return latest.current;
  };
  return { value, change, settled };
}

const contentField = standaloneField('portableText', 'content', 'Content');
const { Widget: PortableText } = widgets.portableText;

interface Props {
  id: string;
  label: string;
  className?: string;
  value: unknown[];
  onChange: (value: unknown[] | undefined) => void;
  /** The server's refusal of the content, said under it. */
  issue: string | undefined;
}

/** The entry editor's Portable Text editor as one setting of a form, labelled, its refusal under it. */
export function PortableTextSetting({ id, label, className = 'setting', value, onChange, issue }: Props) {
  return (
    <div className={className}>
      <span className="setting-label" id={labelIdOf(id)}>
        {label}
      </span>
      <PortableText field={contentField} id={id} errorId={`${id}-error`} error={issue} value={value} onChange={onChange} />
      <FieldIssue id={`${id}-error`} message={issue} />
    </div>
  );
}
