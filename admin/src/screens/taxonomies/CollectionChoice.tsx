import type { ContentCollection } from '../../api/client';
import { toggled } from '../../choices';
import { useT } from '../../i18n/i18n';
import { FieldIssue } from '../../shell/FieldIssue';

interface Props {
  id: string;
  collections: readonly ContentCollection[];
  chosen: readonly string[];
  onChange: (chosen: string[]) => void;
  issue: string | undefined;
}

/** The collections a taxonomy applies to: a box each, in the site's order. */
export function CollectionChoice({ id, collections, chosen, onChange, issue }: Props) {
  const t = useT();
  const slugs = collections.map((collection) => collection.slug);
  return (
    <fieldset className="setting choice-list" aria-describedby={`${id}-error`}>
      <legend>{t('taxonomies.collections')}</legend>
      {collections.map((collection) => (
        <label key={collection.slug}>
          <input type="checkbox" checked={chosen.includes(collection.slug)} onChange={(event) => onChange(toggled(slugs, chosen, collection.slug, event.target.checked))} /> {collection.label}
        </label>
      ))}
      <FieldIssue id={`${id}-error`} message={issue} />
    </fieldset>
  );
}
