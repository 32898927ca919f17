import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { Button, Collection, Toolbar, Tree, TreeItem, TreeItemContent, useDragAndDrop, type Key } from 'react-aria-components';
import { api, dataOf } from '../../api/client';
import { meQuery } from '../../api/queries';
import { useT, type Translate } from '../../i18n/i18n';
import { canShapeSite } from '../../roles';
import { ConfirmButton } from '../../shell/ConfirmButton';
import { EditDialog } from '../../shell/EditDialog';
import { messageOf } from '../account/notice';
import { ItemForm } from './ItemForm';
import { menuQuery, menusQuery } from './queries';
import { dropPlace, moved, placements, shapeOf, stepsOf, type MenuNode, type Place, type Shape } from './tree';
import './menus.css';

/** The tree again from a shape, for showing a move at once while the server stores it. */
function treeOf(shape: Shape, byId: ReadonlyMap<string, MenuNode>, parentId: string | null = null): MenuNode[] {
  return (shape.get(parentId) ?? []).map((id) => ({ ...byId.get(id)!, children: treeOf(shape, byId, id) }));
}

function indexed(nodes: readonly MenuNode[], into = new Map<string, MenuNode>()): Map<string, MenuNode> {
  for (const node of nodes) {
    into.set(node.id, node);
    indexed(node.children, into);
  }
  return into;
}

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
  const navigate = useNavigate();
  const me = useQuery(meQuery);
  const menu = useQuery(menuQuery(name));
  const [selected, setSelected] = useState<string>();
  const [editing, setEditing] = useState<MenuNode>();
  const [notice, setNotice] = useState('');
  const [collapsed, setCollapsed] = useState<ReadonlySet<Key>>(new Set());
  // The tree as last moved, shown while the server stores the move.
  const [pending, setPending] = useState<MenuNode[]>();
  const stored = menu.data?.item.items;
  const items = useMemo(() => pending ?? stored ?? [], [pending, stored]);
  const byId = useMemo(() => indexed(items), [items]);
  const shape = useMemo(() => shapeOf(items), [items]);
  const withChildren = [...byId.values()].filter((node) => node.children.length > 0).map((node) => node.id);

  const move = async (id: string, place: Place | undefined) => {
    const next = place && moved(shape, id, place);
    if (!next) return;
    setPending(treeOf(next, byId));
    try {
      await dataOf(api.POST('/_cms/api/menus/{name}/reorder', { params: { path: { name } }, body: { items: placements(next) } }));
      await queryClient.invalidateQueries({ queryKey: menuQuery(name).queryKey });
      setNotice(t('menus.item.moved', { item: byId.get(id)?.label ?? id }));
    } catch (error) {
      setNotice(messageOf(error));
    } finally {
      setPending(undefined);
    }
  };
  const { dragAndDropHooks } = useDragAndDrop({
    getItems: (keys) => [...keys].map((key) => ({ 'text/plain': String(key) })),
    onMove: (event) => {
      const [id] = [...event.keys].map(String);
      if (id !== undefined) void move(id, dropPlace(shape, id, String(event.target.key), event.target.dropPosition));
    },
  });
  const remove = async (node: MenuNode) => {
    await dataOf(api.DELETE('/_cms/api/menus/{name}/items/{id}', { params: { path: { name, id: node.id } }, body: {} }));
    setSelected(undefined);
    await queryClient.invalidateQueries({ queryKey: menuQuery(name).queryKey });
    setNotice(t('menus.item.deleted', { item: node.label }));
  };
  const removeMenu = async () => {
    await dataOf(api.DELETE('/_cms/api/menus/{name}', { params: { path: { name } }, body: {} }));
    queryClient.removeQueries({ queryKey: menuQuery(name).queryKey });
    await queryClient.invalidateQueries({ queryKey: menusQuery.queryKey });
    await navigate({ to: '/menus' });
  };

  if (me.data && !canShapeSite(me.data.item.role)) return <p>{t('menus.editorsOnly')}</p>;
  const chosen = selected === undefined ? undefined : byId.get(selected);
  const steps = chosen ? stepsOf(shape, chosen.id) : undefined;
  const stepButton = (step: 'up' | 'down' | 'in' | 'out') => (
    <Button className="react-aria-Button" isDisabled={!steps?.[step] || pending !== undefined} onPress={() => chosen && void move(chosen.id, steps?.[step])}>
      {t(`menus.step.${step}` as const)}
    </Button>
  );
  return (
    <div className="menus">
      <p>
        <Link to="/menus">{t('menus.back')}</Link>
      </p>
      <h1>{menu.data ? t('menus.editTitle', { menu: menu.data.item.label }) : t('menus.title')}</h1>
      <p role="status" className="screen-notice">
        {notice}
      </p>
      {menu.isError && <p role="alert">{messageOf(menu.error)}</p>}
      {menu.isPending && <p>{t('loading')}</p>}
      {menu.data && (
        <>
          <section aria-labelledby="menu-items-heading" className="screen-section">
            <h2 id="menu-items-heading">{t('menus.items')}</h2>
            {items.length === 0 ? (
              <p>{t('menus.noItems')}</p>
            ) : (
              <>
                <p className="setting-hint">{t('menus.items.hint')}</p>
                <Toolbar className="menu-toolbar" aria-label={chosen ? t('menus.toolbarOf', { item: chosen.label }) : t('menus.toolbar')}>
                  {stepButton('up')}
                  {stepButton('down')}
                  {stepButton('in')}
                  {stepButton('out')}
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
                </Toolbar>
                  <Tree
                    aria-label={t('menus.itemsOf', { menu: menu.data.item.label })}
                    className="menu-tree"
                    items={items}
                    selectionMode="single"
                    selectedKeys={selected === undefined ? [] : [selected]}
                    onSelectionChange={(keys) => setSelected(keys === 'all' ? undefined : ([...keys].map(String)[0] ?? undefined))}
                    expandedKeys={withChildren.filter((id) => !collapsed.has(id))}
                    onExpandedChange={(keys) => setCollapsed(new Set(withChildren.filter((id) => !keys.has(id))))}
                    dragAndDropHooks={dragAndDropHooks}
                  >
                    {function row(node: MenuNode) {
                      return (
                        <TreeItem id={node.id} textValue={node.label} className={node.missing ? 'menu-item menu-item-missing' : 'menu-item'}>
                          <TreeItemContent>
                            {({ hasChildItems, isExpanded }) => (
                              <>
                                <Button slot="drag" className="menu-item-handle" aria-label={t('menus.item.drag', { item: node.label })}>
                                  ⠿
                                </Button>
                                {hasChildItems ? (
                                  <Button slot="chevron" className="menu-item-chevron" aria-label={isExpanded ? t('menus.item.collapse', { item: node.label }) : t('menus.item.expand', { item: node.label })}>
                                    {isExpanded ? '▾' : '▸'}
                                  </Button>
                                ) : (
                                  <span className="menu-item-chevron" />
                                )}
                                <span className="menu-item-label">{node.label}</span>
                                <span className="menu-item-link">{linkText(t, node)}</span>
                              </>
                            )}
                          </TreeItemContent>
                          <Collection items={node.children}>{row}</Collection>
                        </TreeItem>
                      );
                    }}
                  </Tree>
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
              body={t('menus.deleteBody', { items: byId.size })}
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
    </div>
  );
}
