import { use, type ComponentType } from 'react';
import type { Field } from '../../api/client';
import type { FieldInputProps } from '../input';
import { loadedPortableTextInput, loadPortableTextInput } from '../../portable-text/load';
import { BooleanInput } from './BooleanInput';
import { DateTimeInput } from './DateTimeInput';
import { JsonInput } from './JsonInput';
import { MediaInput } from './MediaInput';
import { MultiSelectInput } from './MultiSelectInput';
import { NumberInput } from './NumberInput';
import { ReferenceInput } from './ReferenceInput';
import { SelectInput } from './SelectInput';
import { TextAreaInput } from './TextAreaInput';
import { TextInput } from './TextInput';

/**
 * The Portable Text engine, its own chunk (portable-text/load.ts): rendered directly once here, which
 * the entry route's loader usually made it by the time the entry's data came; else the field
 * suspends until it is.
 */
function PortableTextField(props: FieldInputProps<unknown[]>) {
  const PortableTextInput = loadedPortableTextInput() ?? use(loadPortableTextInput());
  return <PortableTextInput {...props} />;
}

/**
 * Each field type's widget, and how its label names it: `for` (a <label for> on one input) or
 * `group` (a group of inputs named with aria-labelledby).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each widget takes its own type's value; the editor passes the value the API gave for that type
type AnyWidget = ComponentType<FieldInputProps<any>>;
export const widgets: Record<Field['type'], { Widget: AnyWidget; label: 'for' | 'group' }> = {
  string: { Widget: TextInput, label: 'for' },
  text: { Widget: TextAreaInput, label: 'for' },
  number: { Widget: NumberInput, label: 'for' },
  integer: { Widget: NumberInput, label: 'for' },
  boolean: { Widget: BooleanInput, label: 'for' },
  datetime: { Widget: DateTimeInput, label: 'group' },
  select: { Widget: SelectInput, label: 'for' },
  multiSelect: { Widget: MultiSelectInput, label: 'group' },
  portableText: { Widget: PortableTextField, label: 'group' },
  image: { Widget: MediaInput, label: 'group' },
  file: { Widget: MediaInput, label: 'group' },
  reference: { Widget: ReferenceInput, label: 'for' },
  json: { Widget: JsonInput, label: 'for' },
  slug: { Widget: TextInput, label: 'for' },
  url: { Widget: TextInput, label: 'for' },
};
