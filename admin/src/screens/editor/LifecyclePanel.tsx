import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { settingsQuery } from '../../api/queries';
import { ZonedPicker } from '../../fields/widgets/DateTimeInput';
import '../../fields/fields.css';
import { useDateFormat, useT } from '../../i18n/i18n';
import { canPublish } from '../../roles';
import type { EntrySidebarProps } from './EntrySidebar';

/**
 * The entry's state and what can be done with it, as the role allows: a Contributor saves drafts
 * and trashes, an Author and up also publishes, schedules and unpublishes (the server decides in
 * the end). Every action saves the edits first, so it acts on what is on screen.
 */
export function LifecyclePanel({ collection, session, state, role }: EntrySidebarProps) {
  const t = useT();
  const navigate = useNavigate();
  const formatDate = useDateFormat();
  const timeZone = useQuery(settingsQuery).data?.timezone ?? 'UTC';
  const [scheduleAt, setScheduleAt] = useState<string>();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const entry = state.entry;
  const publisher = canPublish(role);
  const busy = state.busy !== undefined;
  const unsent = Object.keys(state.edits).length > 0;
  const staged = entry?.liveData !== undefined;
  const list = () => void navigate({ to: '/content/$collection', params: { collection: collection.slug } });

  const action = (label: string, run: () => Promise<unknown>, className?: string) => (
    <Button className={className} isDisabled={busy} onPress={() => void run()}>
      {label}
    </Button>
  );

  return (
    <section className="side-panel" aria-labelledby="lifecycle-heading">
      <h2 id="lifecycle-heading">{t('editor.lifecycle.title')}</h2>
      <p className="entry-state">
        {state.trashed ? (
          <span className="status status-trash">{t('status.trash')}</span>
        ) : entry ? (
          <span className={`status status-${entry.status}`}>{t(`status.${entry.status}`)}</span>
        ) : (
          t('editor.lifecycle.unsaved')
        )}
        {staged && !state.trashed && <span className="entry-meta"> {t('editor.lifecycle.staged')}</span>}
      </p>
      {entry?.publishedAt && <p className="entry-meta">{t('editor.lifecycle.publishedAt', { when: formatDate(entry.publishedAt) })}</p>}
      {entry?.scheduledAt && <p className="entry-meta">{t('editor.lifecycle.scheduledAt', { when: formatDate(entry.scheduledAt) })}</p>}
      {entry && <p className="entry-meta">{t('editor.lifecycle.slug', { slug: entry.slug })}</p>}

      {state.trashed ? (
        <div className="lifecycle-actions">
          {action(t('editor.action.restore'), () => session.act('restore'))}
          {confirmDelete ? (
            <div role="group" aria-labelledby="delete-confirm" className="confirm">
              <p id="delete-confirm">{t('editor.action.deleteConfirm')}</p>
              {action(t('editor.action.deleteForGood'), async () => (await session.act('delete')) === 'deleted' && list(), 'danger')}
              <Button onPress={() => setConfirmDelete(false)}>{t('editor.action.cancel')}</Button>
            </div>
          ) : (
            <Button className="danger" onPress={() => setConfirmDelete(true)}>
              {t('editor.action.deleteForGood')}
            </Button>
          )}
        </div>
      ) : (
        <div className="lifecycle-actions">
          <Button className={publisher ? undefined : 'primary'} isDisabled={busy || !unsent} onPress={() => void session.flush()}>
            {t('editor.action.save')}
          </Button>
          {publisher && (entry?.status !== 'published' || staged || unsent) && action(entry?.status === 'published' ? t('editor.action.publishChanges') : t('editor.action.publish'), () => session.act('publish'), 'primary')}
          {publisher && entry?.status === 'published' && action(t('editor.action.unpublish'), () => session.act('unpublish'))}
          {publisher && entry?.status === 'scheduled' && action(t('editor.action.unschedule'), () => session.act('unschedule'))}
          {staged && action(t('editor.action.discardDraft'), () => session.act('discard-draft'))}
          {entry &&
            action(t('editor.action.duplicate'), async () => {
              const copy = await session.act('duplicate');
              if (copy && copy !== 'deleted') void navigate({ to: '/content/$collection/$id', params: { collection: collection.slug, id: copy.id } });
            })}
          {entry && action(t('editor.action.trash'), () => session.act('trash'), 'danger')}
        </div>
      )}

      {publisher && !state.trashed && entry?.status !== 'published' && (
        <div className="schedule">
          <span id="schedule-label" className="field-label">
            {t('editor.schedule.label')}
          </span>
          <ZonedPicker labelledBy="schedule-label" timeZone={timeZone} value={scheduleAt} onChange={setScheduleAt} />
          <span className="field-hint">{t('editor.datetime.zone', { zone: timeZone })}</span>
          <Button isDisabled={busy || scheduleAt === undefined} onPress={() => scheduleAt !== undefined && void session.act({ schedule: scheduleAt })}>
            {t('editor.action.schedule')}
          </Button>
        </div>
      )}
    </section>
  );
}
