import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, GridList, GridListItem, useDragAndDrop } from 'react-aria-components';
import { api, dataOf, type Schemas } from '../../api/client';
import { collectionsQuery } from '../../api/queries';
import { useT } from '../../i18n/i18n';
import { ConfirmButton } from '../../shell/ConfirmButton';
import { EditDialog } from '../../shell/EditDialog';
import { FieldForm } from './FieldForm';

type Field = Schemas['Field'];

/** `order` with `moved` taken out and put back before or after `target`. */
export function reordered(order: readonly string[], moved: readonly string[], target: string, position: 'before' | 'after'): string[] {
  const rest = order.filter((slug) => !moved.includes(slug));
  const at = rest.indexOf(target) + (position === 'after' ? 1 : 0);
  return [...rest.slice(0, at), ...moved, ...rest.slice(at)];
}

interface Props {
  collection: string;
  /** The collection's label, naming the list. */
  label: string;
  fields: readonly Field[];
  onNotice: (text: string) => void;
}

/**
 * A collection's fields in their order: dragged to a new place (React Aria's drag and drop, which
 * the keyboard can do too), or moved a step up or down with a button; each changed in a dialog or
 * deleted after saying how many entries lose their value.
 */
export function FieldList({ collection, label, fields, onNotice }: Props) {
  const t = useT();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Field>();
  // The order as last asked for, shown at once while the server stores it.
  const [pending, setPending] = useState<string[]>();
  const order = pending ?? fields.map((field) => field.slug);
  const bySlug = new Map(fields.map((field) => [field.slug, field]));
  const shown = order.map((slug) => bySlug.get(slug)).filter((field) => field !== undefined);

  const store = async (next: string[], moved: Field) => {
    setPending(next);
    try {
      await dataOf(api.POST('/_cms/api/schema/collections/{slug}/fields/reorder', { params: { path: { slug: collection } }, body: { fieldSlugs: next } }));
      await queryClient.invalidateQueries({ queryKey: collectionsQuery.queryKey });
      onNotice(t('schema.field.moved', { field: moved.label, position: next.indexOf(moved.slug) + 1, total: next.length }));
    } catch (error) {
      onNotice(error instanceof Error ? error.message : String(error));
    } finally {
      setPending(undefined);
    }
  };
  const step = (field: Field, by: -1 | 1) => {
    const index = order.indexOf(field.slug);
    const target = order[index + by];
    if (target !== undefined) void store(reordered(order, [field.slug], target, by < 0 ? 'before' : 'after'), field);
  };
  const { dragAndDropHooks } = useDragAndDrop({
    getItems: (keys) => [...keys].map((key) => ({ 'text/plain': String(key) })),
    onReorder: (event) => {
      const moved = [...event.keys].map(String);
      if (event.target.dropPosition === 'on') return;
      void store(reordered(order, moved, String(event.target.key), event.target.dropPosition), bySlug.get(moved[0]!)!);
    },
  });
  const remove = async (field: Field) => {
    await dataOf(api.DELETE('/_cms/api/schema/collections/{collectionSlug}/fields/{fieldSlug}', { params: { path: { collectionSlug: collection, fieldSlug: field.slug } }, body: {} }));
    await queryClient.invalidateQueries({ queryKey: collectionsQuery.queryKey });
    onNotice(t('schema.field.deleted', { field: field.label }));
  };

  if (shown.length === 0) return <p>{t('schema.noFields')}</p>;
  return (
    <>
      <GridList aria-label={t('schema.fieldsOf', { collection: label })} items={shown} dragAndDropHooks={dragAndDropHooks} className="schema-fields">
        {(field) => (
          <GridListItem id={field.slug} textValue={field.label} className="schema-field">
            <Button slot="drag" className="schema-field-handle" aria-label={t('schema.field.drag', { field: field.label })}>
              ⠿
            </Button>
            <span className="schema-field-name">
              <strong>{field.label}</strong> <code>{field.slug}</code>
            </span>
            <span className="schema-field-type">
              {t(`schema.type.${field.type}` as const)}
              {field.required ? ` · ${t('schema.field.required')}` : ''}
            </span>
            <span className="schema-field-actions">
              <Button className="react-aria-Button" aria-label={t('schema.field.upLabel', { field: field.label })} isDisabled={order[0] === field.slug} onPress={() => step(field, -1)}>
                {t('schema.field.up')}
              </Button>
              <Button className="react-aria-Button" aria-label={t('schema.field.downLabel', { field: field.label })} isDisabled={order.at(-1) === field.slug} onPress={() => step(field, 1)}>
                {t('schema.field.down')}
              </Button>
              <Button className="react-aria-Button" aria-label={t('schema.field.editLabel', { field: field.label })} onPress={() => setEditing(field)}>
                {t('schema.field.edit')}
              </Button>
              <ConfirmButton
                label={t('schema.field.delete')}
                ariaLabel={t('schema.field.deleteLabel', { field: field.label })}
                title={t('schema.field.deleteTitle', { field: field.label })}
                body={t('schema.field.deleteBody', { field: field.slug, entries: field.values ?? 0 })}
                confirmLabel={t('schema.field.deleteConfirm')}
                onConfirm={() => remove(field)}
              />
            </span>
          </GridListItem>
        )}
      </GridList>
      <EditDialog editing={editing} onClose={() => setEditing(undefined)} title={(field) => t('schema.field.editTitle', { field: field.label })}>
        {(field, close, cancel) => (
          <FieldForm
            id="edit-field"
            collection={collection}
            field={field}
            onDone={(saved) => {
              onNotice(t('schema.field.saved', { field: saved.label }));
              close();
            }}
            extraButtons={cancel}
          />
        )}
      </EditDialog>
    </>
  );
}
