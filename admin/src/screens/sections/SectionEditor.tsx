import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, dataOf, refusalOf, type Schemas } from '../../api/client';
import { meQuery } from '../../api/queries';
import { PortableTextSetting, usePortableTextValue } from '../../fields/PortableTextSetting';
import { useT } from '../../i18n/i18n';
import { canShapeSite } from '../../roles';
import { ConfirmButton } from '../../shell/ConfirmButton';
import { DetailScreen, useLeaveDeleted } from '../../shell/DetailScreen';
import { FormEnd } from '../../shell/FormEnd';
import { TextSetting } from '../../shell/TextSetting';
import { sectionQuery, sectionsQuery } from './queries';

type Section = Schemas['Section'];

/**
 * One section (issue 33): its title, slug and keywords, and its content in the entry editor's
 * Portable Text editor (so nothing is converted and nothing lost), saved with a button; deleted
 * after saying that widgets showing it will read it as missing.
 */
export function SectionEditor() {
  const t = useT();
  const { slug } = useParams({ from: '/sections/$slug' });
  const me = useQuery(meQuery);
  const section = useQuery(sectionQuery(slug));
  const [notice, setNotice] = useState('');
  if (me.data && !canShapeSite(me.data.item.role)) return <p>{t('sections.editorsOnly')}</p>;
  return (
    <DetailScreen className="sections" list="/sections" back={t('sections.back')} title={section.data ? t('sections.editTitle', { section: section.data.item.title }) : t('sections.title')} notice={notice} read={section}>
      {section.data && <SectionForm section={section.data.item} onNotice={setNotice} />}
    </DetailScreen>
  );
}

function SectionForm({ section, onNotice }: { section: Section; onNotice: (text: string) => void }) {
  const t = useT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(section.title);
  const [slug, setSlug] = useState(section.slug);
  const [keywords, setKeywords] = useState(section.keywords.join(', '));
  const content = usePortableTextValue(section.content);
  const leave = useLeaveDeleted('/sections', sectionQuery(section.slug).queryKey, sectionsQuery.queryKey);
  const save = useMutation({
    mutationFn: (blocks: unknown[]) =>
      dataOf(
        api.PUT('/_cms/api/sections/{slug}', {
          params: { path: { slug: section.slug } },
          body: { title, slug, keywords: keywords.split(',').map((word) => word.trim()).filter((word) => word !== ''), content: blocks as Section['content'] },
        }),
      ),
    onSuccess: async ({ item }) => {
      await queryClient.invalidateQueries({ queryKey: sectionsQuery.queryKey });
      onNotice(t('sections.saved', { section: item.title }));
      if (item.slug !== section.slug) await navigate({ to: '/sections/$slug', params: { slug: item.slug }, replace: true });
    },
  });
  const { at, elsewhere } = refusalOf(save.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void content.settled().then((blocks) => save.mutate(blocks));
  };
  const remove = async () => {
    await dataOf(api.DELETE('/_cms/api/sections/{slug}', { params: { path: { slug: section.slug } }, body: {} }));
    await leave();
  };
  return (
    <>
      <form className="stacked-form section-form" onSubmit={submit}>
        <TextSetting id="section-title" label={t('sections.field.title')} value={title} onChange={setTitle} issue={at('title')} required />
        <TextSetting id="section-slug" label={t('sections.field.slug')} value={slug} onChange={setSlug} hint={t('sections.field.slug.changeHint')} issue={at('slug')} required />
        <TextSetting id="section-keywords" label={t('sections.field.keywords')} value={keywords} onChange={setKeywords} hint={t('sections.field.keywords.hint')} issue={at('keywords')} />
        <PortableTextSetting id="section-content" className="setting section-content" label={t('sections.field.content')} value={content.value} onChange={content.change} issue={at('content')} />
        <FormEnd refusal={elsewhere} submitLabel={t('sections.save')} pending={save.isPending} />
      </form>
      <section aria-labelledby="section-delete-heading" className="screen-section">
        <h2 id="section-delete-heading">{t('sections.delete')}</h2>
        <ConfirmButton
          label={t('sections.deleteButton', { section: section.title })}
          title={t('sections.deleteTitle', { section: section.title })}
          body={t('sections.deleteBody')}
          confirmLabel={t('sections.deleteConfirm')}
          onConfirm={remove}
        />
      </section>
    </>
  );
}
