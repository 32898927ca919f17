import { useState } from 'react';
import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover } from 'react-aria-components';
import { useT } from '../../../i18n/i18n';

export interface Choice {
  id: string;
  label: string;
}

/**
 * What the terms and bylines panels share: the chosen ones, each with a button that removes it, and
 * a searchable combobox (React Aria) of the others; picking one adds it at once.
 */
export function ChosenList({ chosen, label, onRemove, isDisabled }: { chosen: Choice[]; label: string; onRemove: (id: string) => void; isDisabled: boolean }) {
  const t = useT();
  if (chosen.length === 0) return <p className="entry-meta">{t('sidebar.none')}</p>;
  return (
    <ul className="sidebar-chosen" aria-label={label}>
      {chosen.map((choice) => (
        <li key={choice.id}>
          <span>{choice.label}</span>
          <Button className="link-button" isDisabled={isDisabled} aria-label={t('sidebar.remove', { name: choice.label })} onPress={() => onRemove(choice.id)}>
            {t('sidebar.removeShort')}
          </Button>
        </li>
      ))}
    </ul>
  );
}

export function AddPicker({ label, options, onPick, isDisabled }: { label: string; options: Choice[]; onPick: (id: string) => void; isDisabled: boolean }) {
  const t = useT();
  const [typed, setTyped] = useState('');
  const words = typed.trim().toLocaleLowerCase();
  const shown = options.filter((option) => words === '' || option.label.toLocaleLowerCase().includes(words)).slice(0, 50);
  return (
    <ComboBox
      className="sidebar-picker"
      items={shown}
      menuTrigger="focus"
      allowsEmptyCollection
      inputValue={typed}
      onInputChange={setTyped}
      selectedKey={null}
      onSelectionChange={(key) => {
        // Not disabled while a change is saved (that would take the focus away): a pick then waits for the next try.
        if (key === null || isDisabled) return;
        onPick(String(key));
        setTyped('');
      }}
    >
      <Label>{label}</Label>
      <div className="combo">
        <Input className="field-input" />
        <Button className="combo-button" aria-label={t('sidebar.showChoices', { label })}>
          ▾
        </Button>
      </div>
      <Popover className="combo-popover">
        <ListBox className="combo-list" renderEmptyState={() => <p className="combo-empty">{t('sidebar.noMatch')}</p>}>
          {(item: Choice) => (
            <ListBoxItem className="combo-item" id={item.id} textValue={item.label}>
              {item.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
