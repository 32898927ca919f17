import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { api, dataOf } from '../../api/client';
import { meQuery } from '../../api/queries';
import { useT } from '../../i18n/i18n';
import { canShapeSite } from '../../roles';
import { NamedTable } from '../../shell/NamedTable';
import { NewNamedForm } from '../../shell/NewNamedForm';
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
      <NamedTable
        label={t('widgets.title')}
        columns={[t('widgets.column.area'), t('widgets.column.name'), t('widgets.column.widgets')]}
        read={areas}
        items={items}
        none={t('widgets.none')}
        row={(area) => ({
          link: (
            <Link to="/widget-areas/$name" params={{ name: area.name }}>
              {area.label}
            </Link>
          ),
          name: area.name,
          facts: [area.widgetCount],
        })}
      />
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
