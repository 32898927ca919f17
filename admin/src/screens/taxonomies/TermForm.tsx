import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { api, dataOf, refusalOf, type Schemas } from '../../api/client';
import { useT } from '../../i18n/i18n';
import { FieldIssue } from '../../shell/FieldIssue';
import { FormEnd } from '../../shell/FormEnd';
import { TextSetting } from '../../shell/TextSetting';
import { hyphenatedSlugFrom } from '../../slugs';

export type TermNode = Schemas['TermTreeNode'];

/** Every term but `except` and those under it, each with its depth, in tree order: the parents a term may take. */
function parentChoices(nodes: readonly TermNode[], except: string | undefined, depth = 0): { id: string; label: string; depth: number }[] {
  return nodes.filter((node) => node.id !== except).flatMap((node) => [{ id: node.id, label: node.label, depth }, ...parentChoices(node.children, except, depth + 1)]);
}

interface Props {
  taxonomy: string;
  hierarchical: boolean;
  /** The taxonomy's tree, for the choice of a parent. */
  tree: readonly TermNode[];
  /** The term to change; absent, the form adds one (last among its siblings). */
  term?: TermNode;
  id: string;
  onDone: (label: string) => void;
  extraButtons?: ReactNode;
}

/** A term's form: its label, slug (suggested from the label for a new one), parent and description. */
export function TermForm({ taxonomy, hierarchical, tree, term, id, onDone, extraButtons }: Props) {
  const t = useT();
  const queryClient = useQueryClient();
  const [label, setLabel] = useState(term?.label ?? '');
  const [slug, setSlug] = useState<string | undefined>(term?.slug);
  const [parentId, setParentId] = useState(term?.parentId ?? '');
  const [description, setDescription] = useState(term?.description ?? '');
  const save = useMutation({
    mutationFn: () => {
      const body = { label, slug: slug ?? hyphenatedSlugFrom(label), description: description.trim() === '' ? null : description, ...(hierarchical ? { parentId: parentId === '' ? null : parentId } : {}) };
      return term
        ? dataOf(api.PUT('/_cms/api/taxonomies/{name}/terms/{slug}', { params: { path: { name: taxonomy, slug: term.slug } }, body }))
        : dataOf(api.POST('/_cms/api/taxonomies/{name}/terms', { params: { path: { name: taxonomy } }, body }));
    },
    onSuccess: async ({ item }) => {
      await queryClient.invalidateQueries({ queryKey: ['terms', taxonomy] });
      if (!term) {
        setLabel('');
        setSlug(undefined);
        setDescription('');
      }
      onDone(item.label);
    },
  });
  // Made again only when the tree changes: a taxonomy of thousands of terms re-rendered them on every
  // keystroke and on every notice of the screen (React compares the same elements in no time). A
  // changed tree (a move stored) reaches them deferred, in a render React may interrupt, so the
  // thousands of options never hold the screen in one task with the tree's own update.
  const termId = term?.id;
  const choicesOf = useDeferredValue(tree);
  const choices = useMemo(
    () =>
      parentChoices(choicesOf, termId).map((choice) => (
        <option key={choice.id} value={choice.id}>
          {`${'— '.repeat(choice.depth)}${choice.label}`}
        </option>
      )),
    [choicesOf, termId],
  );
  const { at, elsewhere } = refusalOf(save.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="stacked-form" onSubmit={submit}>
      <TextSetting id={`${id}-label`} label={t('terms.label')} value={label} onChange={setLabel} issue={at('label')} required />
      <TextSetting id={`${id}-slug`} label={t('terms.slug')} value={slug ?? hyphenatedSlugFrom(label)} onChange={setSlug} hint={t('terms.slug.hint')} issue={at('slug')} required />
      {hierarchical && (
        <div className="setting">
          <label htmlFor={`${id}-parent`}>{t('terms.parent')}</label>
          <select id={`${id}-parent`} className="field-input term-parent" value={parentId} onChange={(event) => setParentId(event.target.value)} aria-describedby={`${id}-parent-error`}>
            <option value="">{t('terms.parent.none')}</option>
            {choices}
          </select>
          <FieldIssue id={`${id}-parent-error`} message={at('parentId')} />
        </div>
      )}
      <TextSetting id={`${id}-description`} label={t('terms.description')} value={description} onChange={setDescription} issue={at('description')} multiline />
      <FormEnd refusal={elsewhere} submitLabel={term ? t('terms.save') : t('terms.add')} pending={save.isPending} extra={extraButtons} />
    </form>
  );
}
