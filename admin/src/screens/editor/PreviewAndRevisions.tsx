import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, dataOf } from '../../api/client';
import { useT } from '../../i18n/i18n';
import type { EntrySidebarProps } from './EntrySidebar';

/**
 * The entry as the site will show it and its history: a Preview button for collections that support
 * preview (a signed link to the entry's page on the site, opened in a new tab; decisions/0046) and a
 * link to the revisions screen for collections that keep revisions. Shown once the entry exists.
 */
export function PreviewAndRevisions({ collection, session, state }: EntrySidebarProps) {
  const t = useT();
  const [problem, setProblem] = useState<string>();
  const [opening, setOpening] = useState(false);
  const entry = state.entry;
  const previewable = collection.supports.includes('preview');
  const keepsRevisions = collection.supports.includes('revisions');
  if (!entry || state.trashed || (!previewable && !keepsRevisions)) return null;

  const preview = async () => {
    setProblem(undefined);
    // The tab is opened now, within the click, where no popup blocker refuses it; its address follows.
    const tab = window.open('', '_blank');
    setOpening(true);
    try {
      // The link shows what is saved: the edits on screen go first.
      await session.flush();
      const { url } = await dataOf(api.POST('/_cms/api/content/{collection}/{id}/preview-url', { params: { path: { collection: collection.slug, id: entry.id } }, body: {} }), { onUnauthorized: 'throw' });
      if (tab) {
        tab.opener = null;
        tab.location.href = url;
      } else {
        window.open(url, '_blank', 'noopener');
      }
    } catch (error) {
      tab?.close();
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setOpening(false);
    }
  };

  return (
    <section className="side-panel" aria-labelledby="entry-links-heading">
      <h2 id="entry-links-heading">{t('editor.links.title')}</h2>
      <div className="lifecycle-actions">
        {previewable && (
          <Button isDisabled={opening} onPress={() => void preview()}>
            {t('editor.links.preview')}
          </Button>
        )}
        {keepsRevisions && (
          <Link to="/content/$collection/$id/revisions" params={{ collection: collection.slug, id: entry.id }}>
            {t('editor.links.revisions')}
          </Link>
        )}
      </div>
      {problem !== undefined && (
        <p role="alert" className="field-error">
          {t('editor.links.previewFailed', { problem })}
        </p>
      )}
    </section>
  );
}
