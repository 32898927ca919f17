import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, dataOf, refusalOf } from '../../api/client';
import { meQuery } from '../../api/queries';
import { useT } from '../../i18n/i18n';
import { canShapeSite } from '../../roles';
import { FormEnd } from '../../shell/FormEnd';
import { NamedTable } from '../../shell/NamedTable';
import { TextSetting } from '../../shell/TextSetting';
import { hyphenatedSlugFrom } from '../../slugs';
import { sectionsQuery } from './queries';

/** The site's sections (reusable blocks, issue 33), for Editors and up: found by title, slug or keyword; a new one opens in its editor. */
export function Sections() {
  const t = useT();
  const me = useQuery(meQuery);
  const sections = useQuery(sectionsQuery);
  const [typed, setTyped] = useState('');
  if (me.data && !canShapeSite(me.data.item.role)) return <p>{t('sections.editorsOnly')}</p>;
  const words = typed.trim().toLocaleLowerCase();
  const items = (sections.data ?? []).filter((section) => words === '' || [section.title, section.slug, ...section.keywords].some((text) => text.toLocaleLowerCase().includes(words)));
  return (
    <div className="sections">
      <h1>{t('sections.title')}</h1>
      <div className="filter-row">
        <label htmlFor="sections-search">{t('sections.search')}</label>
        <input id="sections-search" type="search" className="field-input" value={typed} onChange={(event) => setTyped(event.target.value)} />
      </div>
      <NamedTable
        label={t('sections.title')}
        columns={[t('sections.column.title'), t('sections.column.slug'), t('sections.column.keywords'), t('sections.column.source')]}
        read={sections}
        items={items}
        none={t('sections.none')}
        row={(section) => ({
          link: (
            <Link to="/sections/$slug" params={{ slug: section.slug }}>
              {section.title}
            </Link>
          ),
          name: section.slug,
          facts: [section.keywords.join(', '), t(`sections.source.${section.source}` as const)],
        })}
      />
      <NewSection />
    </div>
  );
}

function NewSection() {
  const t = useT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState('');
  const [slug, setSlug] = useState<string>();
  const create = useMutation({
    mutationFn: () => dataOf(api.POST('/_cms/api/sections', { body: { title, slug: slug ?? hyphenatedSlugFrom(title), content: [] } })),
    onSuccess: async ({ item }) => {
      await queryClient.invalidateQueries({ queryKey: sectionsQuery.queryKey });
      await navigate({ to: '/sections/$slug', params: { slug: item.slug } });
    },
  });
  const { at, elsewhere } = refusalOf(create.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <section aria-labelledby="new-section-heading" className="screen-section">
      <h2 id="new-section-heading">{t('sections.new')}</h2>
      <form className="stacked-form" onSubmit={submit}>
        <TextSetting id="new-section-title" label={t('sections.field.title')} value={title} onChange={setTitle} issue={at('title')} required />
        <TextSetting id="new-section-slug" label={t('sections.field.slug')} value={slug ?? hyphenatedSlugFrom(title)} onChange={setSlug} hint={t('sections.field.slug.hint')} issue={at('slug')} required />
        <FormEnd refusal={elsewhere} submitLabel={t('sections.create')} pending={create.isPending} />
      </form>
    </section>
  );
}
