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
  const loaded = answers.every((answer) => !answer.isPending);
  return (
    <div className="term-filter">
      {/* Disabled until the terms come, then made once more so the chosen term (from the URL) shows its
          label: remade while someone typed, it would wipe what they typed. */}
      <ComboBox
        key={loaded ? 'loaded' : 'loading'}
        isDisabled={!loaded}
        selectedKey={term ?? null}
        defaultInputValue={options.find((option) => option.id === term)?.label ?? ''}
        onSelectionChange={(key) => onChange(key === null ? undefined : String(key))}
        defaultItems={options}
        menuTrigger="focus"
      >
        <Label>{t('list.term')}</Label>
        <div className="combo">
          <Input />
          <Button aria-label={t('list.termShow')}>▾</Button>
        </div>
        <Popover className="combo-popover">
          <ListBox className="combo-list">{(option: { id: string; label: string }) => <ListBoxItem className="combo-item" id={option.id}>{option.label}</ListBoxItem>}</ListBox>
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
