import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { Button } from 'react-aria-components';
import { api, dataOf, refusalOf } from '../../api/client';
import { meQuery } from '../../api/queries';
import { useT } from '../../i18n/i18n';
import { canShapeSite } from '../../roles';
import { TextSetting } from '../../shell/TextSetting';
import { messageOf } from '../account/notice';
import { hyphenatedSlugFrom } from '../../slugs';
import { menusQuery } from './queries';
import './menus.css';

/** The site's menus (issue 33), for Editors and up: each opens in the tree editor; a new one is named here. */
export function Menus() {
  const t = useT();
  const me = useQuery(meQuery);
  const menus = useQuery(menusQuery);
  if (me.data && !canShapeSite(me.data.item.role)) return <p>{t('menus.editorsOnly')}</p>;
  const items = menus.data?.items ?? [];
  return (
    <div className="menus">
      <h1>{t('menus.title')}</h1>
      {menus.isError && <p role="alert">{messageOf(menus.error)}</p>}
      {menus.isPending && <p>{t('loading')}</p>}
      {menus.data && items.length === 0 && <p>{t('menus.none')}</p>}
      {items.length > 0 && (
        <ul className="menus-list" aria-label={t('menus.title')}>
          {items.map((menu) => (
            <li key={menu.name}>
              <Link to="/menus/$name" params={{ name: menu.name }}>
                {menu.label}
              </Link>{' '}
              <code>{menu.name}</code>
            </li>
          ))}
        </ul>
      )}
      <NewMenu />
    </div>
  );
}

function NewMenu() {
  const t = useT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [label, setLabel] = useState('');
  const [name, setName] = useState<string>();
  const create = useMutation({
    mutationFn: () => dataOf(api.POST('/_cms/api/menus', { body: { label, name: name ?? hyphenatedSlugFrom(label) } })),
    onSuccess: async ({ item }) => {
      await queryClient.invalidateQueries({ queryKey: menusQuery.queryKey });
      await navigate({ to: '/menus/$name', params: { name: item.name } });
    },
  });
  const { at, elsewhere } = refusalOf(create.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <section aria-labelledby="new-menu-heading" className="screen-section">
      <h2 id="new-menu-heading">{t('menus.new')}</h2>
      <form className="stacked-form" onSubmit={submit}>
        <TextSetting id="new-menu-label" label={t('menus.label')} value={label} onChange={setLabel} hint={t('menus.label.hint')} issue={at('label')} required />
        <TextSetting id="new-menu-name" label={t('menus.name')} value={name ?? hyphenatedSlugFrom(label)} onChange={setName} hint={t('menus.name.hint')} issue={at('name')} required />
        {elsewhere && <p role="alert">{elsewhere}</p>}
        <Button type="submit" className="react-aria-Button primary" isDisabled={create.isPending}>
          {t('menus.create')}
        </Button>
      </form>
    </section>
  );
}
