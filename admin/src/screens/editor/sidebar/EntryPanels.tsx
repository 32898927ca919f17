import type { ContentCollection, Entry } from '../../../api/client';
import type { EntrySession } from '../session';
import { BylinesPanel, useHasBylines } from './BylinesPanel';
import { TermsPanel } from './TermsPanel';
import { useMultilingual } from '../../../locales';
import { TranslationsPanel } from './TranslationsPanel';

/**
 * The sidebar's panels for a saved entry, each shown only where it has something to work with: terms
 * when a taxonomy applies to the collection (TermsPanel decides), bylines when the site has any,
 * translations when the site has more than one locale.
 */
export function EntryPanels({ collection, entry, session }: { collection: ContentCollection; entry: Entry; session: EntrySession }) {
  const hasBylines = useHasBylines();
  const multilingual = useMultilingual();
  return (
    <>
      <TermsPanel collection={collection} entry={entry} />
      {hasBylines && <BylinesPanel collection={collection} entry={entry} credit={(bylines) => session.credit(bylines)} />}
      {multilingual && <TranslationsPanel collection={collection} entry={entry} />}
    </>
  );
}
