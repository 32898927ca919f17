import { Button, Checkbox, CheckboxGroup, Disclosure, DisclosurePanel } from 'react-aria-components';
import type { ContentCollection } from '../../api/client';
import { useT } from '../../i18n/i18n';
import { columnLabel, optionalColumns } from './columns';

/** Which columns the list shows, as checkboxes behind a button; the choice goes into the URL. */
export function ColumnChooser({ collection, chosen, onChange }: { collection: ContentCollection; chosen: string[]; onChange: (ids: string[]) => void }) {
  const t = useT();
  return (
    <Disclosure className="column-chooser">
      <Button slot="trigger">{t('list.columns')}</Button>
      <DisclosurePanel>
        <CheckboxGroup className="column-choices" aria-label={t('list.columns')} value={chosen} onChange={onChange}>
          {optionalColumns(collection).map((column) => (
            <Checkbox key={column.id} value={column.id}>
              <span className="check" aria-hidden="true" />
              {columnLabel(column, t)}
            </Checkbox>
          ))}
        </CheckboxGroup>
      </DisclosurePanel>
    </Disclosure>
  );
}
