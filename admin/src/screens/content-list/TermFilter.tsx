import { useQueries } from '@tanstack/react-query';
import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover } from 'react-aria-components';
import { termsQuery } from '../../api/queries';
import { useT } from '../../i18n/i18n';

interface Props {
  taxonomies: { name: string; label: string }[];
  /** The URL's `taxonomy:term-slug`. */
  term: string | undefined;
  onChange: (term: string | undefined) => void;
}

/** A ComboBox of the terms of the collection's taxonomies, typed to narrow; the choice filters through the API (`term=`). */
export default function TermFilter({ taxonomies, term, onChange }: Props) {
  const t = useT();
  const answers = useQueries({ queries: taxonomies.map((taxonomy) => termsQuery(taxonomy.name)) });
  const options = taxonomies.flatMap((taxonomy, index) =>
    (answers[index]?.data ?? []).map((item) => ({ id: `${taxonomy.name}:${item.slug}`, label: taxonomies.length > 1 ? `${item.label} (${taxonomy.label})` : item.label })),
  );
  return (
    <div className="term-filter">
      {/* Remade once the terms come, so the chosen term (from the URL) shows its label. */}
      <ComboBox
        key={options.length}
        selectedKey={term ?? null}
        defaultInputValue={options.find((option) => option.id === term)?.label ?? ''}
        onSelectionChange={(key) => onChange(key === null ? undefined : String(key))}
        defaultItems={options}
        menuTrigger="focus"
      >
        <Label>{t('list.term')}</Label>
        <div className="term-input">
          <Input />
          <Button aria-label={t('list.termShow')}>▾</Button>
        </div>
        <Popover className="term-popover">
          <ListBox>{(option: { id: string; label: string }) => <ListBoxItem id={option.id}>{option.label}</ListBoxItem>}</ListBox>
        </Popover>
      </ComboBox>
      {term !== undefined && (
        <Button className="react-aria-Button" onPress={() => onChange(undefined)}>
          {t('list.termClear')}
        </Button>
      )}
    </div>
  );
}
