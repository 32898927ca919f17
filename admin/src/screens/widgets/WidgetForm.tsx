import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { api, dataOf, refusalOf, type Schemas } from '../../api/client';
import { PortableTextSetting, usePortableTextValue } from '../../fields/PortableTextSetting';
import { useT } from '../../i18n/i18n';
import { FieldIssue } from '../../shell/FieldIssue';
import { FormEnd } from '../../shell/FormEnd';
import { TextSetting } from '../../shell/TextSetting';
import { menusQuery } from '../menus/queries';
import { sectionsQuery } from '../sections/queries';

export type Widget = Schemas['Widget'];
type Kind = Widget['type'];
type Blocks = Extract<Widget, { type: 'content' }>['content'];

interface Props {
  area: string;
  /** The widget to change (its kind stays); absent, the form adds one at the end of the area. */
  widget?: Widget;
  id: string;
  onDone: (title: string) => void;
  extraButtons?: ReactNode;
}

/** A widget's form: its title, and its own content (Portable Text), menu or section. */
export function WidgetForm({ area, widget, id, onDone, extraButtons }: Props) {
  const t = useT();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<Kind>(widget?.type ?? 'content');
  const [title, setTitle] = useState(widget?.title ?? '');
  const content = usePortableTextValue(widget?.type === 'content' ? widget.content : []);
  const [menu, setMenu] = useState(widget?.type === 'menu' ? widget.menu.name : '');
  const [section, setSection] = useState(widget?.type === 'section' ? widget.section.slug : '');
  const menus = useQuery({ ...menusQuery, enabled: kind === 'menu' });
  const sections = useQuery({ ...sectionsQuery, enabled: kind === 'section' });
  const save = useMutation({
    mutationFn: (blocks: unknown[]) => {
      const shown = title.trim() === '' ? null : title;
      const target = kind === 'content' ? { content: blocks as Blocks } : kind === 'menu' ? { menu } : { section };
      return widget
        ? dataOf(api.PUT('/_cms/api/widget-areas/{name}/widgets/{id}', { params: { path: { name: area, id: widget.id } }, body: { title: shown, ...target } }))
        : dataOf(api.POST('/_cms/api/widget-areas/{name}/widgets', { params: { path: { name: area } }, body: { type: kind, title: shown, ...target } as never }));
    },
    onSuccess: async ({ item }) => {
      await queryClient.invalidateQueries({ queryKey: ['widget-areas'] });
      if (!widget) {
        setTitle('');
        content.change([]);
      }
      onDone(item.title ?? t(`widgets.kind.${item.type}` as const));
    },
  });
  const { at, elsewhere } = refusalOf(save.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void content.settled().then((blocks) => save.mutate(blocks));
  };
  const choice = (key: 'menu' | 'section', value: string, set: (value: string) => void, options: { value: string; label: string }[]) => (
    <div className="setting">
      <label htmlFor={`${id}-${key}`}>{t(`widgets.kind.${key}` as const)}</label>
      <select id={`${id}-${key}`} className="field-input" value={value} required onChange={(event) => set(event.target.value)} aria-describedby={`${id}-${key}-error`}>
        <option value="">{t('widgets.choose')}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldIssue id={`${id}-${key}-error`} message={at(key)} />
    </div>
  );
  return (
    <form className="stacked-form" onSubmit={submit}>
      {!widget && (
        <fieldset className="setting choice-list">
          <legend>{t('widgets.kind')}</legend>
          {(['content', 'menu', 'section'] as const).map((option) => (
            <label key={option}>
              <input type="radio" name={`${id}-kind`} checked={kind === option} onChange={() => setKind(option)} /> {t(`widgets.kind.${option}` as const)}
            </label>
          ))}
        </fieldset>
      )}
      <TextSetting id={`${id}-title`} label={t('widgets.widgetTitle')} value={title} onChange={setTitle} hint={t('widgets.widgetTitle.hint')} issue={at('title')} />
      {kind === 'content' && (
        <PortableTextSetting id={`${id}-content`} label={t('widgets.kind.content')} value={content.value} onChange={content.change} issue={at('content')} />
      )}
      {kind === 'menu' && choice('menu', menu, setMenu, (menus.data?.items ?? []).map((item) => ({ value: item.name, label: item.label })))}
      {kind === 'section' && choice('section', section, setSection, (sections.data ?? []).map((item) => ({ value: item.slug, label: item.title })))}
      <FormEnd refusal={elsewhere} submitLabel={widget ? t('widgets.save') : t('widgets.add')} pending={save.isPending} extra={extraButtons} />
    </form>
  );
}
