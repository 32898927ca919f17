import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ContentCollection, Entry } from '../../../api/client';
import { useT } from '../../../i18n/i18n';
import { AddPicker, ChosenList } from './Picker';
import { bylinesQuery } from './queries';

/** Whether the site has bylines to credit: the sidebar shows the panel only then. */
export function useHasBylines(): boolean {
  return (useQuery(bylinesQuery).data?.length ?? 0) > 0;
}

/**
 * Who the entry credits, in order (the first is its primary byline): the entry's own `bylines`,
 * written through the entry's API (PUT with `bylines` and `_rev`). `credit` is the editor's way to
 * send it (EntrySession.credit), so the save goes in turn with the autosave and its `_rev`.
 */
export function BylinesPanel({ entry, credit }: { collection: ContentCollection; entry: Entry; credit: (bylines: string[]) => Promise<Entry | undefined> }) {
  const t = useT();
  const bylines = useQuery(bylinesQuery);
  const [busy, setBusy] = useState(false);
  const nameOf = new Map((bylines.data ?? []).map((byline) => [byline.id, byline.displayName]));
  const credited = entry.bylines ?? [];
  const send = async (ids: string[]) => {
    setBusy(true);
    try {
      await credit(ids);
    } finally {
      setBusy(false);
    }
  };
  const options = (bylines.data ?? []).filter((byline) => !credited.includes(byline.id)).map((byline) => ({ id: byline.id, label: byline.displayName }));
  return (
    <section className="side-panel" aria-labelledby="bylines-heading">
      <h2 id="bylines-heading">{t('sidebar.bylines')}</h2>
      <ChosenList
        chosen={credited.map((id) => ({ id, label: nameOf.get(id) ?? t('sidebar.unknownByline', { id }) }))}
        label={t('sidebar.bylines')}
        isDisabled={busy}
        onRemove={(id) => void send(credited.filter((creditedId) => creditedId !== id))}
      />
      <AddPicker label={t('sidebar.addByline')} options={options} isDisabled={busy} onPick={(id) => void send([...credited, id])} />
    </section>
  );
}
