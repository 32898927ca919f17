import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from 'react-aria-components';
import { api, dataOf, refusalOf, type Schemas } from '../../api/client';
import { toggled } from '../../choices';
import { meQuery } from '../../api/queries';
import { useDateFormat, useT } from '../../i18n/i18n';
import { isAdmin } from '../../roles';
import { ConfirmButton } from '../../shell/ConfirmButton';
import { FieldIssue } from '../../shell/FieldIssue';
import { SecretOnce } from '../../shell/SecretOnce';
import { messageOf, type Notice } from '../../shell/notice';
import { usePeopleNames } from '../people/names';
import { tokensQuery } from './queries';
import './tokens.css';

type Token = Schemas['AccessToken'];
type Scope = Token['scopes'][number];

/** Every scope, in the API's order (DECISIONS §2): what the form offers. */
const allScopes: readonly Scope[] = ['content:read', 'content:write', 'media:read', 'media:write', 'schema:read', 'schema:write', 'admin'];

/** The expiries offered, in days; 0 is never. A token that never expires is allowed but not the default. */
const expiries = [7, 30, 90, 365, 0] as const;
const dayMs = 24 * 60 * 60 * 1000;

/**
 * Personal access tokens (issue 33), for admins as the API allows (DECISIONS §2): create one for
 * yourself with its scopes and expiry, its secret shown once with a copy button; every token of the
 * site listed with its owner, and revoked after a confirmation.
 */
export function Tokens() {
  const t = useT();
  const me = useQuery(meQuery);
  const [notice, setNotice] = useState<Notice>();
  if (me.data && !isAdmin(me.data.item.role)) return <p>{t('tokens.adminsOnly')}</p>;
  return (
    <div className="tokens">
      <h1>{t('tokens.title')}</h1>
      <p className="tokens-intro">{t('tokens.intro')}</p>
      <p role="status" className="screen-notice">
        {notice?.kind === 'done' ? notice.text : ''}
      </p>
      {me.data && <NewToken userId={me.data.item.id} />}
      <TokenList meId={me.data?.item.id} onNotice={setNotice} />
    </div>
  );
}

function NewToken({ userId }: { userId: string }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['content:read']);
  const [days, setDays] = useState<number>(30);
  const [created, setCreated] = useState<{ name: string; secret: string }>();
  const create = useMutation({
    mutationFn: () =>
      dataOf(
        api.POST('/_cms/api/admin/tokens', {
          body: { userId, name, scopes, ...(days === 0 ? {} : { expiresAt: new Date(Date.now() + days * dayMs).toISOString() }) },
        }),
      ),
    onSuccess: async ({ token, item }) => {
      setCreated({ name: item.name, secret: token });
      setName('');
      await queryClient.invalidateQueries({ queryKey: tokensQuery.queryKey });
    },
  });
  const { at: issueAt, elsewhere } = refusalOf(create.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setCreated(undefined);
    create.mutate();
  };
  const toggle = (scope: Scope, on: boolean) => setScopes((current) => toggled(allScopes, current, scope, on));
  return (
    <section aria-labelledby="new-token-heading" className="screen-section">
      <h2 id="new-token-heading">{t('tokens.new')}</h2>
      {created ? (
        <SecretOnce
          title={t('tokens.secretTitle', { name: created.name })}
          body={t('tokens.secretBody')}
          label={t('tokens.secretLabel')}
          secret={created.secret}
          onDone={() => setCreated(undefined)}
        />
      ) : (
        <form className="stacked-form" onSubmit={submit}>
          <div className="setting">
            <label htmlFor="token-name">{t('tokens.name')}</label>
            <input
              id="token-name"
              className="field-input"
              value={name}
              required
              maxLength={200}
              onChange={(event) => setName(event.target.value)}
              aria-describedby="token-name-hint token-name-error"
              aria-invalid={issueAt('name') ? true : undefined}
            />
            <p id="token-name-hint" className="setting-hint">
              {t('tokens.name.hint')}
            </p>
            <FieldIssue id="token-name-error" message={issueAt('name')} />
          </div>
          <fieldset className="setting choice-list" aria-describedby="token-scopes-hint token-scopes-error" aria-invalid={issueAt('scopes') ? true : undefined}>
            <legend>{t('tokens.scopes')}</legend>
            {allScopes.map((scope) => (
              <label key={scope}>
                <input type="checkbox" checked={scopes.includes(scope)} onChange={(event) => toggle(scope, event.target.checked)} /> <code>{scope}</code>
              </label>
            ))}
            <p id="token-scopes-hint" className="setting-hint">
              {t('tokens.scopes.hint')}
            </p>
            <FieldIssue id="token-scopes-error" message={issueAt('scopes')} />
          </fieldset>
          <div className="setting">
            <label htmlFor="token-expiry">{t('tokens.expiry')}</label>
            <select id="token-expiry" className="field-input tokens-expiry" value={days} onChange={(event) => setDays(Number(event.target.value))} aria-describedby="token-expiry-error">
              {expiries.map((choice) => (
                <option key={choice} value={choice}>
                  {choice === 0 ? t('tokens.expiry.never') : choice === 365 ? t('tokens.expiry.year') : t('tokens.expiry.days', { days: choice })}
                </option>
              ))}
            </select>
            <FieldIssue id="token-expiry-error" message={issueAt('expiresAt')} />
          </div>
          {elsewhere && <p role="alert">{t('tokens.createFailed', { message: elsewhere })}</p>}
          <Button type="submit" className="react-aria-Button primary" isDisabled={create.isPending}>
            {t('tokens.create')}
          </Button>
        </form>
      )}
    </section>
  );
}

function TokenList({ meId, onNotice }: { meId: string | undefined; onNotice: (notice: Notice) => void }) {
  const t = useT();
  const date = useDateFormat();
  const queryClient = useQueryClient();
  const tokens = useQuery(tokensQuery);
  const items = tokens.data?.items ?? [];
  const nameOf = usePeopleNames(items.map((token) => token.userId));
  const now = Date.now();
  const revoke = async (token: Token) => {
    await dataOf(api.DELETE('/_cms/api/admin/tokens/{id}', { params: { path: { id: token.id } }, body: {} }));
    await queryClient.invalidateQueries({ queryKey: tokensQuery.queryKey });
    onNotice({ kind: 'done', text: t('tokens.revoked', { name: token.name }) });
  };
  return (
    <section aria-labelledby="token-list-heading" className="screen-section">
      <h2 id="token-list-heading">{t('tokens.list')}</h2>
      {tokens.isError && <p role="alert">{messageOf(tokens.error)}</p>}
      {tokens.isPending && <p>{t('loading')}</p>}
      {tokens.data && items.length === 0 && <p>{t('tokens.none')}</p>}
      {items.length > 0 && (
        <table className="data-table" aria-labelledby="token-list-heading">
          <thead>
            <tr>
              <th scope="col">{t('tokens.column.name')}</th>
              <th scope="col">{t('tokens.column.owner')}</th>
              <th scope="col">{t('tokens.column.scopes')}</th>
              <th scope="col">{t('tokens.column.expires')}</th>
              <th scope="col">{t('tokens.column.used')}</th>
              <th scope="col">{t('tokens.column.created')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('tokens.column.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((token) => {
              const owner = nameOf.get(token.userId) ?? token.userId;
              const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= now;
              return (
                <tr key={token.id}>
                  <th scope="row">{token.name}</th>
                  <td>{token.userId === meId ? t('tokens.you', { name: owner }) : owner}</td>
                  <td>{token.scopes.join(', ')}</td>
                  <td>{token.expiresAt === null ? t('tokens.never') : expired ? t('tokens.expired', { when: date(token.expiresAt) }) : date(token.expiresAt)}</td>
                  <td>{token.lastUsedAt ? date(token.lastUsedAt) : t('tokens.unused')}</td>
                  <td>{date(token.createdAt)}</td>
                  <td>
                    <ConfirmButton
                      label={t('tokens.revoke')}
                      ariaLabel={t('tokens.revokeLabel', { name: token.name })}
                      title={t('tokens.revokeTitle', { name: token.name })}
                      body={t('tokens.revokeBody')}
                      confirmLabel={t('tokens.revokeConfirm')}
                      onConfirm={() => revoke(token)}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
