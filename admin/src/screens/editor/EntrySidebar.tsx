import type { ReactNode } from 'react';
import type { ContentCollection } from '../../api/client';
import { LifecyclePanel } from './LifecyclePanel';
import { PreviewAndRevisions } from './PreviewAndRevisions';
import { EntryPanels } from './sidebar/EntryPanels';
import type { EntrySession, SessionState } from './session';

export interface EntrySidebarProps {
  collection: ContentCollection;
  session: EntrySession;
  state: SessionState;
  /** The signed-in user's role (GET /auth/me), for what the panels offer. */
  role: number;
}

/**
 * The editor's side column: the entry's life cycle first, then the other panels, each a <section>
 * with its own heading (terms, bylines, translations, preview and revisions join here).
 */
export function EntrySidebar(props: EntrySidebarProps) {
  return <aside className="entry-sidebar">{sidebarPanels(props)}</aside>;
}

function sidebarPanels(props: EntrySidebarProps): ReactNode[] {
  const entry = props.state.entry;
  return [
    <LifecyclePanel key="lifecycle" {...props} />,
    <PreviewAndRevisions key="preview-revisions" {...props} />,
    // Terms, bylines and translations belong to a saved entry that is not in the trash.
    entry && !props.state.trashed && <EntryPanels key="entry" collection={props.collection} entry={entry} session={props.session} />,
  ];
}
