import type { FieldInputProps } from '../fields/input';
import { labelIdOf } from '../fields/input';

/** A block's text as it reads: the spans of its children, joined. */
function blockText(block: unknown): string {
  if (typeof block !== 'object' || block === null) return '';
  const children = (block as { children?: unknown }).children;
  if (!Array.isArray(children)) return `[${String((block as { _type?: unknown })._type ?? 'block')}]`;
  return children.map((child) => (typeof (child as { text?: unknown })?.text === 'string' ? (child as { text: string }).text : '')).join('');
}

/**
 * Portable Text fields, until the editor engine (wt-ptext) takes this file's place: the blocks shown
 * as their text, read-only, and the value left exactly as it is (this widget never changes it).
 */
export function PortableTextInput(props: FieldInputProps<unknown[]>) {
  const blocks = Array.isArray(props.value) ? props.value : [];
  return (
    <div id={props.id} role="group" className="portable-text-preview" aria-labelledby={labelIdOf(props.id)} aria-describedby={props.error !== undefined ? props.errorId : undefined}>
      {blocks.map((block, index) => (
        <p key={index}>{blockText(block)}</p>
      ))}
    </div>
  );
}
