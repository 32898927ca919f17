import { memo, useMemo, useState } from 'react';
import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, ListLayout, Popover, Text, useFilter, Virtualizer } from 'react-aria-components';
import { useT } from '../../i18n/i18n';
import { FieldIssue } from '../../shell/FieldIssue';
import type { TermNode } from './TermForm';

interface Choice {
  /** A term's id, or `topLevel`. */
  id: string;
  label: string;
  /** The labels of the terms above it, top first ("Cooking › Bread"): same-named terms are told apart by it. */
  path: string;
}

/** The choice of no parent: the form's value for it is '' (a term's id is never that, and React Aria takes no empty key). */
const topLevel = 'top-level';

/** Every row's height in px, the layout's and taxonomies.css's (`.term-choice`): the virtualizer places rows by it. */
const rowSize = 36;

/** Every term but `except` and those under it, with the labels above it, in tree order: the parents a term may take. */
function parentChoices(nodes: readonly TermNode[], except: string | undefined, above: readonly string[] = []): Choice[] {
  return nodes
    .filter((node) => node.id !== except)
    .flatMap((node) => [{ id: node.id, label: node.label, path: above.join(' › ') }, ...parentChoices(node.children, except, [...above, node.label])]);
}

interface Props {
  id: string;
  /** The taxonomy's tree. */
  tree: readonly TermNode[];
  /** The term being changed: neither it nor a term under it is offered. */
  except: string | undefined;
  /** The chosen parent's id; '' for none (top level). */
  value: string;
  onChange: (value: string) => void;
  /** The server's refusal of the parent, said under the field. */
  issue: string | undefined;
}

/**
 * A term's parent ("Under"), chosen among every term of its taxonomy: a combo box (React Aria's)
 * whose terms are narrowed by what is typed (case and accents aside: React Aria's `useFilter`) and
 * listed only while it is open, a screen of rows at a time (its Virtualizer). A native select held an
 * option for each of thousands of terms, which the page laid out on opening the taxonomy and again
 * on every move (decisions/0064). Closed, React Aria is given the chosen term alone: it builds an
 * item for every one it is given, shown or not. Memoized, so the term form's typing and the tree's
 * moves do not remake it unless the terms or the choice change.
 */
export const ParentPicker = memo(function ParentPicker({ id, tree, except, value, onChange, issue }: Props) {
  const t = useT();
  const { contains } = useFilter({ sensitivity: 'base' });
  const choices = useMemo(() => [{ id: topLevel, label: t('terms.parent.none'), path: '' }, ...parentChoices(tree, except)], [tree, except, t]);
  const [isOpen, setOpen] = useState(false);
  // What is typed; undefined shows the chosen term's label, and every term when opened.
  const [typed, setTyped] = useState<string>();
  const chosen = choices.find((choice) => choice.id === (value === '' ? topLevel : value)) ?? choices[0]!;
  const shown = useMemo(() => (typed === undefined ? choices : choices.filter((choice) => contains(choice.label, typed))), [choices, typed, contains]);
  return (
    <div className="setting">
      <ComboBox
        className="term-parent"
        aria-describedby={`${id}-error`}
        isInvalid={issue !== undefined}
        items={isOpen ? shown : [chosen]}
        allowsEmptyCollection
        inputValue={typed ?? chosen.label}
        onInputChange={setTyped}
        selectedKey={chosen.id}
        onSelectionChange={(key) => {
          // Typing clears the box's selection (null): the parent stays until another is picked.
          if (key === null) return;
          onChange(key === topLevel ? '' : String(key));
          setTyped(undefined);
        }}
        onOpenChange={(open) => {
          setOpen(open);
          // Closed without a pick, the box shows the chosen term again.
          if (!open) setTyped(undefined);
        }}
      >
        <Label>{t('terms.parent')}</Label>
        <div className="combo">
          <Input className="field-input" />
          <Button className="combo-button" aria-label={t('terms.parent.show')}>
            ▾
          </Button>
        </div>
        <Popover className="combo-popover term-parent-popover">
          <Virtualizer layout={ListLayout} layoutOptions={{ rowSize }}>
            <ListBox className="combo-list term-parent-list" renderEmptyState={() => <p className="combo-empty">{t('terms.parent.noMatch')}</p>}>
              {(choice: Choice) => (
                <ListBoxItem className="combo-item term-choice" id={choice.id} textValue={choice.label}>
                  <Text slot="label">{choice.label}</Text>
                  {choice.path !== '' && (
                    <Text slot="description" className="term-choice-path">
                      {t('terms.parent.path', { path: choice.path })}
                    </Text>
                  )}
                </ListBoxItem>
              )}
            </ListBox>
          </Virtualizer>
        </Popover>
      </ComboBox>
      <FieldIssue id={`${id}-error`} message={issue} />
    </div>
  );
});
