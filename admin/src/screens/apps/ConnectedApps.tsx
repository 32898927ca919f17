import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, dataOf, type Schemas } from '../../api/client';
import { meQuery } from '../../api/queries';
import { useDateFormat, useT } from '../../i18n/i18n';
import { isAdmin } from '../../roles';
import { ConfirmButton } from '../../shell/ConfirmButton';
import { messageOf, type Notice } from '../../shell/notice';
import { usePeopleNames } from '../people/names';
import { PersonSelect } from '../people/PersonSelect';

type Grant = Schemas['OAuthGrant'];

/** The site's connected apps (OAuth grants), everyone's or one person's. */
export const siteGrantsQuery = (userId: string) =>
  queryOptions({
    queryKey: ['grants', 'site', userId],
    queryFn: () => dataOf(api.GET('/_cms/api/admin/grants', { params: { query: userId === '' ? {} : { userId } } })),
  });

/**
 * Every app connected to the site over OAuth (issue 33), for admins: which person allowed it, with
 * which scopes, when, and when it was last used; disconnecting one stops its tokens at once. Each
 * person's own are on their account screen.
 */
export function ConnectedApps() {
  const t = useT();
  const date = useDateFormat();
  const queryClient = useQueryClient();
  const me = useQuery(meQuery);
  const [whose, setWhose] = useState('');
  const [notice, setNotice] = useState<Notice>();
  const grants = useQuery(siteGrantsQuery(whose));
  const items = grants.data?.items ?? [];
  const nameOf = usePeopleNames(items.map((grant) => grant.userId));
  if (me.data && !isAdmin(me.data.item.role)) return <p>{t('apps.adminsOnly')}</p>;
  const disconnect = async (grant: Grant, person: string) => {
    await dataOf(api.DELETE('/_cms/api/admin/grants/{id}', { params: { path: { id: grant.id } }, body: {} }));
    await queryClient.invalidateQueries({ queryKey: ['grants'] });
    setNotice({ kind: 'done', text: t('apps.disconnected', { app: grant.clientName, person }) });
  };
  return (
    <div className="apps">
      <h1>{t('apps.title')}</h1>
      <p role="status" className="screen-notice">
        {notice?.kind === 'done' ? notice.text : ''}
      </p>
      <div className="filter-row">
        <PersonSelect id="apps-whose" label={t('apps.whose')} anyone={t('apps.everyone')} value={whose} onChange={setWhose} />
      </div>
      {grants.isError && <p role="alert">{messageOf(grants.error)}</p>}
      {grants.isPending && <p>{t('loading')}</p>}
      {grants.data && items.length === 0 && <p>{t('apps.none')}</p>}
      {items.length > 0 && (
        <table className="data-table" aria-label={t('apps.list')}>
          <thead>
            <tr>
              <th scope="col">{t('apps.column.app')}</th>
              <th scope="col">{t('apps.column.person')}</th>
              <th scope="col">{t('apps.column.scopes')}</th>
              <th scope="col">{t('apps.column.connected')}</th>
              <th scope="col">{t('apps.column.used')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('apps.column.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((grant) => {
              const person = nameOf.get(grant.userId) ?? grant.userId;
              return (
                <tr key={grant.id}>
                  <th scope="row">{grant.clientName}</th>
                  <td>{person}</td>
                  <td>{grant.scopes.join(', ')}</td>
                  <td>{date(grant.createdAt)}</td>
                  <td>{grant.lastUsedAt ? date(grant.lastUsedAt) : t('apps.unused')}</td>
                  <td>
                    <ConfirmButton
                      label={t('apps.disconnect')}
                      ariaLabel={t('apps.disconnectLabel', { app: grant.clientName, person })}
                      title={t('apps.disconnectTitle', { app: grant.clientName, person })}
                      body={t('apps.disconnectBody')}
                      confirmLabel={t('apps.disconnectConfirm')}
                      onConfirm={() => disconnect(grant, person)}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}
