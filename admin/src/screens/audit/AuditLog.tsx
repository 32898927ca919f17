import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Button } from 'react-aria-components';
import { ApiError } from '../../api/client';
import { meQuery } from '../../api/queries';
import { useDateFormat, useT } from '../../i18n/i18n';
import { eventTypes } from '../../events';
import { isAdmin } from '../../roles';
import { messageOf } from '../../shell/notice';
import { PersonSelect } from '../people/PersonSelect';
import { auditQuery, type AuditFilter } from './queries';
import type { AuditSearch } from './search';

// Typed by the route's declaration in router.tsx, without importing the router back into this chunk.
const auditRoute = getRouteApi('/audit');

/** A day picked in a date field, as the instant its first moment is where the person is. */
const startOfDay = (day: string) => new Date(`${day}T00:00:00`).toISOString();
const startOfNextDay = (day: string) => {
  const next = new Date(`${day}T00:00:00`);
  next.setDate(next.getDate() + 1);
  return next.toISOString();
};

/**
 * The audit log (issue 33), for admins, through the audit-log plugin's endpoint: who did what and
 * when, newest first, filtered by the person, the action and the days (kept in the address), fifty
 * at a time.
 */
export function AuditLog() {
  const t = useT();
  const date = useDateFormat();
  const me = useQuery(meQuery);
  const { who, action, from, to } = auditRoute.useSearch();
  const navigate = auditRoute.useNavigate();
  // An empty choice leaves the address without it.
  const choose = (change: Partial<Record<keyof AuditSearch, string>>) =>
    void navigate({ search: (previous) => ({ ...previous, ...Object.fromEntries(Object.entries(change).map(([key, value]) => [key, value === '' ? undefined : value])) }), replace: true });
  const filter: AuditFilter = {
    ...(who === undefined ? {} : { actorId: who }),
    ...(action === undefined ? {} : { action }),
    ...(from === undefined ? {} : { since: startOfDay(from) }),
    ...(to === undefined ? {} : { until: startOfNextDay(to) }),
  };
  const log = useInfiniteQuery({ ...auditQuery(filter), placeholderData: keepPreviousData });
  if (me.data && !isAdmin(me.data.item.role)) return <p>{t('audit.adminsOnly')}</p>;
  if (log.error instanceof ApiError && log.error.status === 404) return <p>{t('audit.pluginOff')}</p>;
  const items = log.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <div className="audit">
      <h1>{t('audit.title')}</h1>
      <div className="filter-row">
        <PersonSelect id="audit-who" label={t('audit.who')} anyone={t('audit.anyone')} value={who ?? ''} onChange={(value) => choose({ who: value })} />
        <div className="setting">
          <label htmlFor="audit-what">{t('audit.what')}</label>
          <select id="audit-what" className="field-input" value={action ?? ''} onChange={(event) => choose({ action: event.target.value })}>
            <option value="">{t('audit.anything')}</option>
            {eventTypes.map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </select>
        </div>
        <div className="setting">
          <label htmlFor="audit-from">{t('audit.from')}</label>
          <input id="audit-from" type="date" className="field-input" value={from ?? ''} onChange={(event) => choose({ from: event.target.value })} />
        </div>
        <div className="setting">
          <label htmlFor="audit-to">{t('audit.to')}</label>
          <input id="audit-to" type="date" className="field-input" value={to ?? ''} onChange={(event) => choose({ to: event.target.value })} />
        </div>
      </div>
      {log.isError && <p role="alert">{messageOf(log.error)}</p>}
      {log.isPending && <p>{t('loading')}</p>}
      {log.data && items.length === 0 && <p>{t('audit.none')}</p>}
      {items.length > 0 && (
        <table className="data-table" aria-label={t('audit.records')}>
          <thead>
            <tr>
              <th scope="col">{t('audit.column.when')}</th>
              <th scope="col">{t('audit.column.who')}</th>
              <th scope="col">{t('audit.column.what')}</th>
              <th scope="col">{t('audit.column.resource')}</th>
              <th scope="col">{t('audit.column.credential')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((record) => (
              <tr key={record.id}>
                <th scope="row">{date(record.at)}</th>
                <td>{record.actor.email ?? t('audit.actorKind', { kind: record.actor.kind })}</td>
                <td>
                  <code>{record.action}</code>
                </td>
                <td>{`${record.resource.type} ${record.resource.id}`}</td>
                <td>{record.credential?.type ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {log.hasNextPage && (
        <Button isDisabled={log.isFetchingNextPage} onPress={() => void log.fetchNextPage()}>
          {t('audit.older')}
        </Button>
      )}
    </div>
  );
}
