import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { api, dataOf } from '../../api/client';
import { meQuery } from '../../api/queries';
import { useT } from '../../i18n/i18n';
import { canShapeSite } from '../../roles';
import { NewNamedForm } from '../../shell/NewNamedForm';
import { ReadState } from '../../shell/ReadState';
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
      <ReadState read={menus} />
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
  return (
    <NewNamedForm
      id="new-menu"
      heading={t('menus.new')}
      labels={{ label: t('menus.label'), labelHint: t('menus.label.hint'), name: t('menus.name'), nameHint: t('menus.name.hint'), submit: t('menus.create') }}
      create={async (body) => {
        const { item } = await dataOf(api.POST('/_cms/api/menus', { body }));
        await queryClient.invalidateQueries({ queryKey: menusQuery.queryKey });
        await navigate({ to: '/menus/$name', params: { name: item.name } });
      }}
    />
  );
}
