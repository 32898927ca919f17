import { startTransition, useMemo, useState, type ReactNode } from 'react';
import { Button, Collection, ListLayout, Toolbar, Tree, TreeItem, TreeItemContent, useDragAndDrop, Virtualizer, type Key } from 'react-aria-components';
import { useT } from '../i18n/i18n';
import { dropPlace, indexed, moved, placements, shapeOf, stepsOf, treeOf, type Place, type TreeNode } from './shape';
import './tree.css';

export type Placement = ReturnType<typeof placements>[number];

/** Every row's height in px, the layout's and tree.css's (`.tree-node`): the virtualizer places rows by it. */
const rowSize = 44;

/**
 * Past this many nodes a tree opens with its top level only (decisions/0064): React Aria builds an
 * item for every node it is given, shown or not, and a collapsed node is given none of its children.
 */
const openCollapsedOver = 300;

interface Props<N extends TreeNode<N>> {
  /** Names the tree for a screen reader ("Items of Main navigation"). */
  label: string;
  nodes: readonly N[];
  /** Whether a node may go under another (a menu, a category tree); otherwise only the order changes (tags). */
  nested: boolean;
  labelOf: (node: N) => string;
  /** What the row says after its label (where an item links, how many entries have a term). */
  detail: (node: N) => ReactNode;
  rowClassName?: (node: N) => string | undefined;
  /** Stores every node's new place; rejects with what to say when the server refuses. */
  onMove: (placements: Placement[], moved: N) => Promise<void>;
  /** The toolbar's own buttons for the selected node (edit, delete). */
  actions: (selected: N | undefined) => ReactNode;
}

/**
 * An ordered tree that people rearrange (issue 33): a node is dragged beside another or, when
 * nested, onto it to go under it (React Aria's tree, whose drag and drop the keyboard drives too), or
 * selected and moved up, down, in (under the node above) and out with the toolbar. A move shows at
 * once and is stored whole by `onMove`; a refusal puts the tree back. Only the rows in view (and a
 * few beyond) are in the document (React Aria's Virtualizer, rows of a fixed height): a taxonomy of
 * thousands of terms lays out and paints one screen of rows, and the tree still tells a screen
 * reader how many rows it has (aria-rowcount). A node's children are given to React Aria only while
 * it is expanded, and a tree of more than `openCollapsedOver` nodes opens collapsed: opening a
 * taxonomy of thousands of terms builds its top level, not every term.
 */
export function TreeEditor<N extends TreeNode<N>>({ label, nodes, nested, labelOf, detail, rowClassName, onMove, actions }: Props<N>) {
  const t = useT();
  const [selected, setSelected] = useState<string>();
  // The tree as last moved, shown while the server stores the move.
  const [pending, setPending] = useState<N[]>();
  const shown = pending ?? nodes;
  const byId = useMemo(() => indexed(shown), [shown]);
  const shape = useMemo(() => shapeOf(shown), [shown]);
  const withChildren = useMemo(() => [...byId.values()].filter((node) => node.children.length > 0).map((node) => node.id), [byId]);
  // By id, so a node keeps its state through moves; a node that gains children shows them.
  const [collapsed, setCollapsed] = useState<ReadonlySet<Key>>(() => new Set(byId.size > openCollapsedOver ? withChildren : []));
  /**
   * React Aria builds an item for every node in its collection, shown or not: a collapsed node gives
   * it its first child only. One child is what React Aria needs to know the node has children (the
   * chevron, aria-expanded, ArrowRight); its TreeItem's `hasChildItems` would not do: version 1.22
   * does not pass it on to the row's aria-expanded and arrow keys.
   */
  const showsChildren = (node: N) => !collapsed.has(node.id);
  // The same array while neither changes: React Aria rebuilds the tree's rows for new expanded keys.
  const expandedKeys = useMemo(() => withChildren.filter((id) => !collapsed.has(id)), [withChildren, collapsed]);

  const move = async (id: string, place: Place | undefined) => {
    const next = place && moved(shape, id, place);
    if (!next) return;
    // The person sees where it went: the parent it went under is open.
    if (place.parentId !== null && collapsed.has(place.parentId)) setCollapsed(new Set([...collapsed].filter((key) => key !== place.parentId)));
    setPending(treeOf(next, byId));
    try {
      await onMove(placements(next), byId.get(id)!);
    } finally {
      // The stored tree looks as the one shown: React may render it in slices.
      startTransition(() => setPending(undefined));
    }
  };
  const dropped = (keys: Set<Key>, target: Key, position: 'before' | 'after' | 'on') => {
    const [id] = [...keys].map(String);
    if (id !== undefined) void move(id, dropPlace(shape, id, String(target), position));
  };
  const { dragAndDropHooks } = useDragAndDrop({
    getItems: (keys) => [...keys].map((key) => ({ 'text/plain': String(key) })),
    ...(nested
      ? { onMove: (event) => dropped(event.keys, event.target.key, event.target.dropPosition) }
      : { onReorder: (event) => dropped(event.keys, event.target.key, event.target.dropPosition) }),
  });

  const chosen = selected === undefined ? undefined : byId.get(selected);
  const steps = chosen ? stepsOf(shape, chosen.id) : undefined;
  const step = (direction: 'up' | 'down' | 'in' | 'out') => (
    <Button className="react-aria-Button" isDisabled={!steps?.[direction] || pending !== undefined} onPress={() => chosen && void move(chosen.id, steps?.[direction])}>
      {t(`tree.step.${direction}` as const)}
    </Button>
  );
  return (
    <>
      <Toolbar className="tree-toolbar" aria-label={chosen ? t('tree.toolbarOf', { node: labelOf(chosen) }) : t('tree.toolbar')}>
        {step('up')}
        {step('down')}
        {nested && step('in')}
        {nested && step('out')}
        {actions(chosen)}
      </Toolbar>
      <Virtualizer layout={ListLayout} layoutOptions={{ rowSize }}>
        <Tree
          aria-label={label}
          className="tree"
          items={shown}
          selectionMode="single"
          selectionBehavior="replace"
          disallowEmptySelection
          selectedKeys={selected === undefined ? [] : [selected]}
          onSelectionChange={(keys) => setSelected(keys === 'all' ? undefined : ([...keys].map(String)[0] ?? undefined))}
          expandedKeys={expandedKeys}
          onExpandedChange={(keys) => setCollapsed(new Set(withChildren.filter((id) => !keys.has(id))))}
          dragAndDropHooks={dragAndDropHooks}
          // React Aria keeps each node's row as first rendered; whether its children are in it depends on this.
          dependencies={[collapsed]}
        >
          {function row(node: N) {
            const name = labelOf(node);
            return (
              <TreeItem id={node.id} textValue={name} className={['tree-node', rowClassName?.(node)].filter(Boolean).join(' ')}>
                <TreeItemContent>
                  {({ hasChildItems, isExpanded }) => (
                    <>
                      <Button slot="drag" className="tree-node-handle" aria-label={t('tree.drag', { node: name })}>
                        ⠿
                      </Button>
                      {hasChildItems ? (
                        <Button slot="chevron" className="tree-node-chevron" aria-label={isExpanded ? t('tree.collapse', { node: name }) : t('tree.expand', { node: name })}>
                          {isExpanded ? '▾' : '▸'}
                        </Button>
                      ) : (
                        <span className="tree-node-chevron" />
                      )}
                      <span className="tree-node-label">{name}</span>
                      <span className="tree-node-detail">{detail(node)}</span>
                    </>
                  )}
                </TreeItemContent>
                {node.children.length > 0 && <Collection items={showsChildren(node) ? node.children : node.children.slice(0, 1)}>{row}</Collection>}
              </TreeItem>
            );
          }}
        </Tree>
      </Virtualizer>
    </>
  );
}
