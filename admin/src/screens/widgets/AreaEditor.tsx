import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { Button } from 'react-aria-components';
import { api, dataOf } from '../../api/client';
import { meQuery } from '../../api/queries';
import { useT, type Translate } from '../../i18n/i18n';
import { canShapeSite } from '../../roles';
import { ConfirmButton } from '../../shell/ConfirmButton';
import { DetailScreen, useLeaveDeleted } from '../../shell/DetailScreen';
import { EditDialog } from '../../shell/EditDialog';
import { TreeEditor, type Placement } from '../../tree/TreeEditor';
import { messageOf } from '../../shell/notice';
import { areaQuery, areasQuery } from './queries';
import { WidgetForm, type Widget } from './WidgetForm';

/** A widget as the tree editor lists it: a row of its own, nothing under it. */
type WidgetRow = Widget & { children: WidgetRow[] };

function nameOf(t: Translate, widget: Widget): string {
  return widget.title ?? t(`widgets.kind.${widget.type}` as const);
}

/** What the widget shows: its menu or section as it is now (or missing), or the start of its own text. */
function shows(t: Translate, widget: Widget): string {
  if (widget.type === 'menu') return 'missing' in widget.menu ? t('widgets.missing.menu', { name: widget.menu.name }) : t('widgets.shows.menu', { menu: widget.menu.label });
  if (widget.type === 'section') return 'missing' in widget.section ? t('widgets.missing.section', { slug: widget.section.slug }) : t('widgets.shows.section', { section: widget.section.title });
  const words = widget.content.map((block) => ('children' in block && Array.isArray(block.children) ? block.children.map((child: { text?: string }) => child.text ?? '').join('') : '')).join(' ');
  return t('widgets.shows.content', { text: words.length > 60 ? `${words.slice(0, 60)}…` : words });
}

/**
 * A widget area (issue 33), for Editors and up: its widgets in order, rearranged by drag and drop or
 * the toolbar (tree/TreeEditor, flat), added (text, a menu or a section), changed in a dialog and
 * removed; a widget whose menu or section is gone is flagged. The area itself can be deleted.
 */
export function AreaEditor() {
  const t = useT();
  const { name } = useParams({ from: '/widget-areas/$name' });
  const queryClient = useQueryClient();
  const me = useQuery(meQuery);
  const area = useQuery(areaQuery(name));
  const leave = useLeaveDeleted('/widget-areas', areaQuery(name).queryKey, areasQuery.queryKey);
  const [editing, setEditing] = useState<Widget>();
  const [notice, setNotice] = useState('');
  const stored = area.data?.item.widgets;
  const rows = useMemo<WidgetRow[]>(() => (stored ?? []).map((widget) => ({ ...widget, children: [] })), [stored]);
  if (me.data && !canShapeSite(me.data.item.role)) return <p>{t('widgets.editorsOnly')}</p>;

  const store = async (placed: Placement[], widget: WidgetRow) => {
    try {
      const widgetIds = [...placed].sort((a, b) => a.sortOrder - b.sortOrder).map((placement) => placement.id);
      await dataOf(api.POST('/_cms/api/widget-areas/{name}/reorder', { params: { path: { name } }, body: { widgetIds } }));
      await queryClient.invalidateQueries({ queryKey: areaQuery(name).queryKey });
      setNotice(t('widgets.moved', { widget: nameOf(t, widget) }));
    } catch (error) {
      setNotice(messageOf(error));
    }
  };
  const remove = async (widget: Widget) => {
    await dataOf(api.DELETE('/_cms/api/widget-areas/{name}/widgets/{id}', { params: { path: { name, id: widget.id } }, body: {} }));
    await queryClient.invalidateQueries({ queryKey: ['widget-areas'] });
    setNotice(t('widgets.removed', { widget: nameOf(t, widget) }));
  };
  const removeArea = async () => {
    await dataOf(api.DELETE('/_cms/api/widget-areas/{name}', { params: { path: { name } }, body: {} }));
    await leave();
  };
  return (
    <DetailScreen className="widget-areas" list="/widget-areas" back={t('widgets.back')} title={area.data ? t('widgets.areaTitle', { area: area.data.item.label }) : t('widgets.title')} notice={notice} read={area}>
      {area.data && (
        <>
          <section aria-labelledby="widgets-heading" className="screen-section">
            <h2 id="widgets-heading">{t('widgets.widgets')}</h2>
            {rows.length === 0 ? (
              <p>{t('widgets.noWidgets')}</p>
            ) : (
              <TreeEditor
                label={t('widgets.widgetsOf', { area: area.data.item.label })}
                nodes={rows}
                nested={false}
                labelOf={(widget) => nameOf(t, widget)}
                detail={(widget) => shows(t, widget)}
                rowClassName={(widget) => ((widget.type === 'menu' && 'missing' in widget.menu) || (widget.type === 'section' && 'missing' in widget.section) ? 'tree-node-missing' : undefined)}
                onMove={store}
                actions={(chosen) => (
                  <>
                    <Button className="react-aria-Button" isDisabled={!chosen} onPress={() => setEditing(chosen)}>
                      {t('widgets.edit')}
                    </Button>
                    {chosen && (
                      <ConfirmButton
                        label={t('widgets.remove')}
                        title={t('widgets.removeTitle', { widget: nameOf(t, chosen) })}
                        body={t('widgets.removeBody')}
                        confirmLabel={t('widgets.removeConfirm')}
                        onConfirm={() => remove(chosen)}
                      />
                    )}
                  </>
                )}
              />
            )}
          </section>
          <section aria-labelledby="add-widget-heading" className="screen-section">
            <h2 id="add-widget-heading">{t('widgets.addWidget')}</h2>
            <WidgetForm id="new-widget" area={name} onDone={(title) => setNotice(t('widgets.added', { widget: title }))} />
          </section>
          <section aria-labelledby="area-delete-heading" className="screen-section">
            <h2 id="area-delete-heading">{t('widgets.deleteArea')}</h2>
            <ConfirmButton
              label={t('widgets.deleteAreaButton', { area: area.data.item.label })}
              title={t('widgets.deleteAreaTitle', { area: area.data.item.label })}
              body={t('widgets.deleteAreaBody', { widgets: rows.length })}
              confirmLabel={t('widgets.deleteAreaConfirm')}
              onConfirm={removeArea}
            />
          </section>
          <EditDialog editing={editing} onClose={() => setEditing(undefined)} title={(widget) => t('widgets.editTitle', { widget: nameOf(t, widget) })}>
            {(widget, close, cancel) => (
              <WidgetForm
                id="edit-widget"
                area={name}
                widget={widget}
                onDone={(title) => {
                  setNotice(t('widgets.saved', { widget: title }));
                  close();
                }}
                extraButtons={cancel}
              />
            )}
          </EditDialog>
        </>
      )}
    </DetailScreen>
  );
}
