import { useMemo, useState, type ReactNode } from 'react';
import { Button, Collection, Toolbar, Tree, TreeItem, TreeItemContent, useDragAndDrop, type Key } from 'react-aria-components';
import { useT } from '../i18n/i18n';
import { dropPlace, indexed, moved, placements, shapeOf, stepsOf, treeOf, type Place, type TreeNode } from './shape';
import './tree.css';

export type Placement = ReturnType<typeof placements>[number];

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
 * once and is stored whole by `onMove`; a refusal puts the tree back.
 */
export function TreeEditor<N extends TreeNode<N>>({ label, nodes, nested, labelOf, detail, rowClassName, onMove, actions }: Props<N>) {
  const t = useT();
  const [selected, setSelected] = useState<string>();
  const [collapsed, setCollapsed] = useState<ReadonlySet<Key>>(new Set());
  // The tree as last moved, shown while the server stores the move.
  const [pending, setPending] = useState<N[]>();
  const shown = pending ?? nodes;
  const byId = useMemo(() => indexed(shown), [shown]);
  const shape = useMemo(() => shapeOf(shown), [shown]);
  const withChildren = [...byId.values()].filter((node) => node.children.length > 0).map((node) => node.id);

  const move = async (id: string, place: Place | undefined) => {
    const next = place && moved(shape, id, place);
    if (!next) return;
    setPending(treeOf(next, byId));
    try {
      await onMove(placements(next), byId.get(id)!);
    } finally {
      setPending(undefined);
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
      <Tree
        aria-label={label}
        className="tree"
        items={shown}
        selectionMode="single"
        selectionBehavior="replace"
        disallowEmptySelection
        selectedKeys={selected === undefined ? [] : [selected]}
        onSelectionChange={(keys) => setSelected(keys === 'all' ? undefined : ([...keys].map(String)[0] ?? undefined))}
        expandedKeys={withChildren.filter((id) => !collapsed.has(id))}
        onExpandedChange={(keys) => setCollapsed(new Set(withChildren.filter((id) => !keys.has(id))))}
        dragAndDropHooks={dragAndDropHooks}
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
              <Collection items={node.children}>{row}</Collection>
            </TreeItem>
          );
        }}
      </Tree>
    </>
  );
}
