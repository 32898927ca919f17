import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { refusalOf } from '../api/client';
import { hyphenatedSlugFrom } from '../slugs';
import { FormEnd } from './FormEnd';
import { TextSetting } from './TextSetting';

interface Props {
  /** Prefixes the ids of its heading and inputs. */
  id: string;
  heading: string;
  labels: { label: string; labelHint: string; name: string; nameHint: string; submit: string };
  /** Creates the thing (a menu, a widget area) and resolves once the screen has moved on to it. */
  create: (body: { label: string; name: string }) => Promise<unknown>;
}

/**
 * The form that creates something templates ask for by name (a menu, a widget area): its label, and
 * its name suggested from the label (`main-navigation`) until the person writes their own.
 */
export function NewNamedForm({ id, heading, labels, create }: Props) {
  const [label, setLabel] = useState('');
  const [name, setName] = useState<string>();
  const save = useMutation({ mutationFn: () => create({ label, name: name ?? hyphenatedSlugFrom(label) }) });
  const { at, elsewhere } = refusalOf(save.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <section aria-labelledby={`${id}-heading`} className="screen-section">
      <h2 id={`${id}-heading`}>{heading}</h2>
      <form className="stacked-form" onSubmit={submit}>
        <TextSetting id={`${id}-label`} label={labels.label} value={label} onChange={setLabel} hint={labels.labelHint} issue={at('label')} required />
        <TextSetting id={`${id}-name`} label={labels.name} value={name ?? hyphenatedSlugFrom(label)} onChange={setName} hint={labels.nameHint} issue={at('name')} required />
        <FormEnd refusal={elsewhere} submitLabel={labels.submit} pending={save.isPending} />
      </form>
    </section>
  );
}
