import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { Button } from 'react-aria-components';
import { api, dataOf, type Schemas } from '../../api/client';
import { meQuery } from '../../api/queries';
import { useT, type Translate } from '../../i18n/i18n';
import { canShapeSite } from '../../roles';
import { ConfirmButton } from '../../shell/ConfirmButton';
import { DetailScreen, useLeaveDeleted } from '../../shell/DetailScreen';
import { EditDialog } from '../../shell/EditDialog';
import { indexed } from '../../tree/shape';
import { TreeEditor, type Placement } from '../../tree/TreeEditor';
import { messageOf } from '../../shell/notice';
import { ItemForm } from './ItemForm';
import { menuQuery, menusQuery } from './queries';
import './menus.css';

export type MenuNode = Schemas['MenuTreeItem'];

/** What an item links to, in a few words: its address, or the kind of target it has. */
function linkText(t: Translate, node: MenuNode): string {
  if (node.missing) return t('menus.item.missing');
  if (node.type === 'custom') return node.url ?? '';
  const where = node.url ?? node.slug ?? '';
  return node.type === 'taxonomy' ? t('menus.item.termLink', { taxonomy: node.referenceCollection ?? '', where }) : t('menus.item.entryLink', { collection: node.referenceCollection ?? node.type, where });
}

/**
 * A menu's tree editor (issue 33), for Editors and up. Items are dragged to a new place, beside
 * another or onto it to go under it (React Aria's tree, which the keyboard drives too), or moved with
 * the toolbar's buttons: up, down, in (under the item above) and out. A move shows at once and is
 * stored whole (POST …/reorder); items whose entry or term is gone are flagged.
 */
export function MenuEditor() {
  const t = useT();
  const { name } = useParams({ from: '/menus/$name' });
  const queryClient = useQueryClient();
  const me = useQuery(meQuery);
  const menu = useQuery(menuQuery(name));
  const leave = useLeaveDeleted('/menus', menuQuery(name).queryKey, menusQuery.queryKey);
  const [editing, setEditing] = useState<MenuNode>();
  const [notice, setNotice] = useState('');
  const stored = menu.data?.item.items;
  const items = useMemo(() => stored ?? [], [stored]);
  const itemCount = useMemo(() => indexed(items).size, [items]);

  const store = async (placed: Placement[], item: MenuNode) => {
    try {
      await dataOf(api.POST('/_cms/api/menus/{name}/reorder', { params: { path: { name } }, body: { items: placed } }));
      await queryClient.invalidateQueries({ queryKey: menuQuery(name).queryKey });
      setNotice(t('menus.item.moved', { item: item.label }));
    } catch (error) {
      setNotice(messageOf(error));
    }
  };
  const remove = async (node: MenuNode) => {
    await dataOf(api.DELETE('/_cms/api/menus/{name}/items/{id}', { params: { path: { name, id: node.id } }, body: {} }));
    await queryClient.invalidateQueries({ queryKey: menuQuery(name).queryKey });
    setNotice(t('menus.item.deleted', { item: node.label }));
  };
  const removeMenu = async () => {
    await dataOf(api.DELETE('/_cms/api/menus/{name}', { params: { path: { name } }, body: {} }));
    await leave();
  };

  if (me.data && !canShapeSite(me.data.item.role)) return <p>{t('menus.editorsOnly')}</p>;
  return (
    <DetailScreen className="menus" list="/menus" back={t('menus.back')} title={menu.data ? t('menus.editTitle', { menu: menu.data.item.label }) : t('menus.title')} notice={notice} read={menu}>
      {menu.data && (
        <>
          <section aria-labelledby="menu-items-heading" className="screen-section">
            <h2 id="menu-items-heading">{t('menus.items')}</h2>
            {items.length === 0 ? (
              <p>{t('menus.noItems')}</p>
            ) : (
              <>
                <p className="setting-hint">{t('menus.items.hint')}</p>
                <TreeEditor
                  label={t('menus.itemsOf', { menu: menu.data.item.label })}
                  nodes={items}
                  nested
                  labelOf={(node) => node.label}
                  detail={(node) => linkText(t, node)}
                  rowClassName={(node) => (node.missing ? 'tree-node-missing' : undefined)}
                  onMove={store}
                  actions={(chosen) => (
                    <>
                      <Button className="react-aria-Button" isDisabled={!chosen} onPress={() => setEditing(chosen)}>
                        {t('menus.item.edit')}
                      </Button>
                      {chosen && (
                        <ConfirmButton
                          label={t('menus.item.delete')}
                          title={t('menus.item.deleteTitle', { item: chosen.label })}
                          body={t('menus.item.deleteBody', { item: chosen.label, children: chosen.children.length })}
                          confirmLabel={t('menus.item.deleteConfirm')}
                          onConfirm={() => remove(chosen)}
                        />
                      )}
                    </>
                  )}
                />
              </>
            )}
          </section>
          <section aria-labelledby="menu-add-heading" className="screen-section">
            <h2 id="menu-add-heading">{t('menus.addItem')}</h2>
            <ItemForm id="new-item" menu={name} onDone={(label) => setNotice(t('menus.item.added', { item: label }))} />
          </section>
          <section aria-labelledby="menu-delete-heading" className="screen-section">
            <h2 id="menu-delete-heading">{t('menus.delete')}</h2>
            <ConfirmButton
              label={t('menus.deleteButton', { menu: menu.data.item.label })}
              title={t('menus.deleteTitle', { menu: menu.data.item.label })}
              body={t('menus.deleteBody', { items: itemCount })}
              confirmLabel={t('menus.deleteConfirm')}
              onConfirm={removeMenu}
            />
          </section>
          <EditDialog editing={editing} onClose={() => setEditing(undefined)} title={(item) => t('menus.item.editTitle', { item: item.label })}>
            {(item, close, cancel) => (
              <ItemForm
                id="edit-item"
                menu={name}
                item={item}
                onDone={(label) => {
                  setNotice(t('menus.item.saved', { item: label }));
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
