import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { api, dataOf } from '../../api/client';
import { meQuery } from '../../api/queries';
import { useT } from '../../i18n/i18n';
import { canShapeSite } from '../../roles';
import { NewNamedForm } from '../../shell/NewNamedForm';
import { messageOf } from '../account/notice';
import { areasQuery } from './queries';

/** The site's widget areas (issue 33), for Editors and up: each opens on its widgets; a new one is named here. */
export function WidgetAreas() {
  const t = useT();
  const me = useQuery(meQuery);
  const areas = useQuery(areasQuery);
  if (me.data && !canShapeSite(me.data.item.role)) return <p>{t('widgets.editorsOnly')}</p>;
  const items = areas.data?.items ?? [];
  return (
    <div className="widget-areas">
      <h1>{t('widgets.title')}</h1>
      {areas.isError && <p role="alert">{messageOf(areas.error)}</p>}
      {areas.isPending && <p>{t('loading')}</p>}
      {areas.data && items.length === 0 && <p>{t('widgets.none')}</p>}
      {items.length > 0 && (
        <table className="data-table" aria-label={t('widgets.title')}>
          <thead>
            <tr>
              <th scope="col">{t('widgets.column.area')}</th>
              <th scope="col">{t('widgets.column.name')}</th>
              <th scope="col">{t('widgets.column.widgets')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((area) => (
              <tr key={area.name}>
                <th scope="row">
                  <Link to="/widget-areas/$name" params={{ name: area.name }}>
                    {area.label}
                  </Link>
                </th>
                <td>
                  <code>{area.name}</code>
                </td>
                <td>{area.widgetCount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <NewArea />
    </div>
  );
}

function NewArea() {
  const t = useT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <NewNamedForm
      id="new-area"
      heading={t('widgets.newArea')}
      labels={{ label: t('widgets.area.label'), labelHint: t('widgets.area.label.hint'), name: t('widgets.area.name'), nameHint: t('widgets.area.name.hint'), submit: t('widgets.createArea') }}
      create={async (body) => {
        const { item } = await dataOf(api.POST('/_cms/api/widget-areas', { body }));
        await queryClient.invalidateQueries({ queryKey: areasQuery.queryKey });
        await navigate({ to: '/widget-areas/$name', params: { name: item.name } });
      }}
    />
  );
}
