import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from 'react-aria-components';
import { api, dataOf, refusalOf, type Schemas } from '../../api/client';
import { meQuery } from '../../api/queries';
import { useDebouncedValue } from '../../debounce';
import { useDateFormat, useT } from '../../i18n/i18n';
import { allRoles, isAdmin, roles, type Role } from '../../roles';
import { ConfirmButton } from '../../shell/ConfirmButton';
import { FieldIssue } from '../../shell/FieldIssue';
import { messageOf, type Notice } from '../../shell/notice';
import { peopleQuery, type PeopleFilter } from './queries';
import './people.css';

type User = Schemas['User'];

/** How long typing must pause before the list is asked for again. */
const typingPause = 250;

/**
 * The site's people (issue 33), for admins: each with role, status and last sign-in, found by name or
 * email and by role; invite someone by mail with a role; change a role, disable and enable, with the
 * server's rules (not yourself, never the last admin) said in its words when it refuses.
 */
export function People() {
  const t = useT();
  const me = useQuery(meQuery);
  const [notice, setNotice] = useState<Notice>();
  if (me.data && !isAdmin(me.data.item.role)) return <p>{t('people.adminsOnly')}</p>;
  return (
    <div className="people">
      <h1>{t('people.title')}</h1>
      <p role="status" className="screen-notice">
        {notice?.kind === 'done' ? notice.text : ''}
      </p>
      {notice?.kind === 'failed' && (
        <p role="alert" className="people-error">
          {notice.text}
        </p>
      )}
      <Invite onNotice={setNotice} />
      <PeopleList meId={me.data?.item.id} onNotice={setNotice} />
    </div>
  );
}

function Invite({ onNotice }: { onNotice: (notice: Notice) => void }) {
  const t = useT();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>(roles.author);
  const invite = useMutation({
    mutationFn: () => dataOf(api.POST('/_cms/api/auth/invite', { body: { email: email.trim(), role } })),
    onSuccess: ({ item }) => {
      setEmail('');
      onNotice({ kind: 'done', text: t('people.invited', { email: item.email, role: t('role', { role: item.role }) }) });
    },
    onError: (error) => {
      // What names a field is said there; the rest above the screen.
      const { elsewhere } = refusalOf(error);
      if (elsewhere !== undefined) onNotice({ kind: 'failed', text: elsewhere });
    },
  });
  const emailIssue = refusalOf(invite.error).at('email');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onNotice(undefined);
    invite.mutate();
  };
  return (
    <section aria-labelledby="invite-heading" className="screen-section">
      <h2 id="invite-heading">{t('people.invite')}</h2>
      <form className="filter-row" onSubmit={submit}>
        <div className="setting">
          <label htmlFor="invite-email">{t('people.email')}</label>
          <input
            id="invite-email"
            type="email"
            className="field-input"
            required
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              invite.reset();
            }}
            aria-invalid={emailIssue ? true : undefined}
            aria-describedby="invite-email-error"
          />
          <FieldIssue id="invite-email-error" message={emailIssue} />
        </div>
        <div className="setting">
          <label htmlFor="invite-role">{t('people.role')}</label>
          <RoleSelect id="invite-role" value={role} onChange={setRole} />
        </div>
        <Button type="submit" className="react-aria-Button primary" isDisabled={invite.isPending}>
          {t('people.sendInvitation')}
        </Button>
      </form>
      <p className="setting-hint">{t('people.inviteHint')}</p>
    </section>
  );
}

function RoleSelect({ id, value, onChange, label, disabled }: { id?: string; value: number; onChange: (role: Role) => void; label?: string; disabled?: boolean }) {
  const t = useT();
  return (
    <select id={id} className="field-input people-role" aria-label={label} value={value} disabled={disabled} onChange={(event) => onChange(Number(event.target.value) as Role)}>
      {allRoles.map((role) => (
        <option key={role} value={role}>
          {t('role', { role })}
        </option>
      ))}
    </select>
  );
}

function PeopleList({ meId, onNotice }: { meId: string | undefined; onNotice: (notice: Notice) => void }) {
  const t = useT();
  const date = useDateFormat();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState('');
  const [role, setRole] = useState<Role | undefined>(undefined);
  const filter: PeopleFilter = { search: useDebouncedValue(typed.trim(), typingPause), role };
  const people = useInfiniteQuery({ ...peopleQuery(filter), placeholderData: keepPreviousData });
  const items = people.data?.pages.flatMap((page) => page.items) ?? [];
  // A change is read back from the server, whose answer replaces the row in every page listed.
  const changed = async (text: string) => {
    await queryClient.invalidateQueries({ queryKey: ['users'] });
    onNotice({ kind: 'done', text });
  };
  const refused = (error: unknown) => onNotice({ kind: 'failed', text: messageOf(error) });
  const changeRole = useMutation({
    mutationFn: ({ user, role: next }: { user: User; role: Role }) => dataOf(api.PATCH('/_cms/api/admin/users/{id}', { params: { path: { id: user.id } }, body: { role: next } })),
    onSuccess: ({ item }) => changed(t('people.roleChanged', { name: item.name, role: t('role', { role: item.role }) })),
    onError: refused,
  });
  const enable = useMutation({
    mutationFn: (user: User) => dataOf(api.POST('/_cms/api/admin/users/{id}/enable', { params: { path: { id: user.id } }, body: {} })),
    onSuccess: ({ item }) => changed(t('people.enabled', { name: item.name })),
    onError: refused,
  });
  const disable = async (user: User) => {
    const { item } = await dataOf(api.POST('/_cms/api/admin/users/{id}/disable', { params: { path: { id: user.id } }, body: {} }));
    await changed(t('people.disabled', { name: item.name }));
  };
  return (
    <section aria-labelledby="people-heading" className="screen-section">
      <h2 id="people-heading">{t('people.list')}</h2>
      <div className="filter-row">
        <div className="setting">
          <label htmlFor="people-search">{t('people.search')}</label>
          <input id="people-search" type="search" className="field-input" value={typed} onChange={(event) => setTyped(event.target.value)} />
        </div>
        <div className="setting">
          <label htmlFor="people-role-filter">{t('people.roleFilter')}</label>
          <select id="people-role-filter" className="field-input people-role" value={role ?? ''} onChange={(event) => setRole(event.target.value === '' ? undefined : (Number(event.target.value) as Role))}>
            <option value="">{t('people.anyRole')}</option>
            {allRoles.map((choice) => (
              <option key={choice} value={choice}>
                {t('role', { role: choice })}
              </option>
            ))}
          </select>
        </div>
      </div>
      {people.isError && <p role="alert">{messageOf(people.error)}</p>}
      {people.isPending && <p>{t('loading')}</p>}
      {people.data && items.length === 0 && <p>{t('people.none')}</p>}
      {items.length > 0 && (
        <table className="data-table" aria-labelledby="people-heading">
          <thead>
            <tr>
              <th scope="col">{t('people.column.name')}</th>
              <th scope="col">{t('people.column.email')}</th>
              <th scope="col">{t('people.column.role')}</th>
              <th scope="col">{t('people.column.status')}</th>
              <th scope="col">{t('people.column.lastSignIn')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('people.column.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((user) => {
              const you = user.id === meId;
              return (
                <tr key={user.id}>
                  <th scope="row">{you ? t('people.you', { name: user.name }) : user.name}</th>
                  <td>{user.email}</td>
                  <td>
                    {/* Your own role is not yours to change (the API refuses it): shown, not offered. */}
                    <RoleSelect value={user.role} label={t('people.roleOf', { name: user.name })} disabled={you || changeRole.isPending} onChange={(next) => changeRole.mutate({ user, role: next })} />
                  </td>
                  <td>{user.disabled ? t('people.statusDisabled') : t('people.statusActive')}</td>
                  <td>{user.lastSignInAt ? date(user.lastSignInAt) : t('people.neverSignedIn')}</td>
                  <td>
                    {user.disabled ? (
                      <Button aria-label={t('people.enableLabel', { name: user.name })} isDisabled={enable.isPending} onPress={() => enable.mutate(user)}>
                        {t('people.enable')}
                      </Button>
                    ) : (
                      !you && (
                        <ConfirmButton
                          label={t('people.disable')}
                          ariaLabel={t('people.disableLabel', { name: user.name })}
                          title={t('people.disableTitle', { name: user.name })}
                          body={t('people.disableBody')}
                          confirmLabel={t('people.disableConfirm')}
                          onConfirm={() => disable(user)}
                        />
                      )
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {people.hasNextPage && (
        <Button isDisabled={people.isFetchingNextPage} onPress={() => void people.fetchNextPage()}>
          {t('people.more')}
        </Button>
      )}
    </section>
  );
}
