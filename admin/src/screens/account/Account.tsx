import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Form, Input, Label, TextField } from 'react-aria-components';
import { api, dataOf } from '../../api/client';
import { meQuery } from '../../api/queries';
import { useDateFormat, useT } from '../../i18n/i18n';
import { browserLanguage, chooseLanguage, chosenLanguage, languages } from '../../i18n/languages';
import { messageOf, type Notice } from '../../shell/notice';
import { addPasskey, browserSupportsPasskeys } from './passkeys';
import { DeletePasskeyDialog, RenamePasskeyDialog } from './PasskeyDialogs';
import { grantsQuery, passkeysQuery } from './queries';
import './account.css';

/**
 * The signed-in person's account (decisions/0048): their passkeys (add, rename, delete), the apps
 * they connected over OAuth (disconnect) and signing out. It replaces the server's page at /_cms/,
 * which now sends here.
 */
export function Account() {
  const t = useT();
  const me = useQuery(meQuery);
  const [notice, setNotice] = useState<Notice>();
  return (
    <div className="account">
      <h1>{t('account.title')}</h1>
      {me.data && <p>{t('account.who', { name: me.data.item.name, email: me.data.item.email })}</p>}
      <p role="status" className="account-notice">
        {notice?.kind === 'done' ? notice.text : ''}
      </p>
      {notice?.kind === 'failed' && (
        <p role="alert" className="account-error">
          {notice.text}
        </p>
      )}
      <Passkeys onNotice={setNotice} />
      <ConnectedApps onNotice={setNotice} />
      <InterfaceLanguage />
      <SignOut onNotice={setNotice} />
    </div>
  );
}

function Passkeys({ onNotice }: { onNotice: (notice: Notice) => void }) {
  const t = useT();
  const date = useDateFormat();
  const queryClient = useQueryClient();
  const passkeys = useQuery(passkeysQuery);
  const [name, setName] = useState('');
  const add = useMutation({
    mutationFn: async () => {
      if (!browserSupportsPasskeys()) throw new Error(t('account.noPasskeySupport'));
      return addPasskey(name.trim() || undefined);
    },
    onSuccess: async () => {
      setName('');
      await queryClient.invalidateQueries({ queryKey: passkeysQuery.queryKey });
      onNotice({ kind: 'done', text: t('account.passkeyAdded') });
    },
    onError: (error) => onNotice({ kind: 'failed', text: messageOf(error) }),
  });
  const items = passkeys.data?.items;
  return (
    <section aria-labelledby="passkeys-heading" className="account-section">
      <h2 id="passkeys-heading">{t('account.passkeys')}</h2>
      {passkeys.isError && <p role="alert">{messageOf(passkeys.error)}</p>}
      {items && items.length === 0 && <p>{t('account.noPasskeys')}</p>}
      {items && items.length > 0 && (
        <ul className="account-list" aria-labelledby="passkeys-heading">
          {items.map((passkey) => (
            <li key={passkey.id}>
              <span className="account-item">
                <span className="entry-title">{passkey.name}</span>
                <span className="entry-meta">
                  {t('account.passkeyCreated', { when: date(passkey.createdAt) })}
                  {' · '}
                  {passkey.lastUsedAt ? t('account.passkeyUsed', { when: date(passkey.lastUsedAt) }) : t('account.passkeyUnused')}
                </span>
              </span>
              <span className="account-actions">
                <RenamePasskeyDialog passkey={passkey} onNotice={onNotice} />
                <DeletePasskeyDialog passkey={passkey} onNotice={onNotice} />
              </span>
            </li>
          ))}
        </ul>
      )}
      <Form
        className="account-add"
        onSubmit={(event) => {
          event.preventDefault();
          onNotice(undefined);
          add.mutate();
        }}
      >
        <TextField value={name} onChange={setName} maxLength={100}>
          <Label>{t('account.newPasskeyName')}</Label>
          <Input placeholder={t('account.newPasskeyPlaceholder')} />
        </TextField>
        <Button type="submit" isDisabled={add.isPending}>
          {t('account.addPasskey')}
        </Button>
      </Form>
    </section>
  );
}

function ConnectedApps({ onNotice }: { onNotice: (notice: Notice) => void }) {
  const t = useT();
  const date = useDateFormat();
  const queryClient = useQueryClient();
  const grants = useQuery(grantsQuery);
  const disconnect = useMutation({
    mutationFn: (grant: { id: string; clientName: string }) => dataOf(api.DELETE('/_cms/api/auth/grants/{id}', { params: { path: { id: grant.id } }, body: {} })),
    onSuccess: async (_data, grant) => {
      await queryClient.invalidateQueries({ queryKey: grantsQuery.queryKey });
      onNotice({ kind: 'done', text: t('account.disconnected', { name: grant.clientName }) });
    },
    onError: (error) => onNotice({ kind: 'failed', text: messageOf(error) }),
  });
  const items = grants.data?.items;
  return (
    <section aria-labelledby="apps-heading" className="account-section">
      <h2 id="apps-heading">{t('account.apps')}</h2>
      {grants.isError && <p role="alert">{messageOf(grants.error)}</p>}
      {items && items.length === 0 && <p>{t('account.noApps')}</p>}
      {items && items.length > 0 && (
        <ul className="account-list" aria-labelledby="apps-heading">
          {items.map((grant) => (
            <li key={grant.id}>
              <span className="account-item">
                <span className="entry-title">{grant.clientName}</span>
                <span className="entry-meta">
                  {t('account.appScopes', { scopes: grant.scopes.join(', ') })}
                  {' · '}
                  {t('account.appConnected', { when: date(grant.createdAt) })}
                  {grant.lastUsedAt && ` · ${t('account.passkeyUsed', { when: date(grant.lastUsedAt) })}`}
                </span>
              </span>
              <span className="account-actions">
                <Button isDisabled={disconnect.isPending && disconnect.variables.id === grant.id} onPress={() => disconnect.mutate(grant)}>
                  {t('account.disconnect', { name: grant.clientName })}
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The panel's language on this browser: the browser's own preference, or one chosen here. */
function InterfaceLanguage() {
  const t = useT();
  const [chosen, setChosen] = useState(chosenLanguage);
  const choose = (value: string) => {
    const language = languages.find((candidate) => candidate.code === value)?.code;
    setChosen(language);
    void chooseLanguage(language);
  };
  const fromBrowser = languages.find((language) => language.code === browserLanguage())!.name;
  return (
    <section aria-labelledby="language-heading" className="account-section">
      <h2 id="language-heading">{t('account.language')}</h2>
      <div className="setting">
        <label htmlFor="interface-language">{t('account.language.label')}</label>
        <select id="interface-language" className="field-input" value={chosen ?? ''} onChange={(event) => choose(event.target.value)}>
          <option value="">{t('account.language.browser', { language: fromBrowser })}</option>
          {languages.map((language) => (
            <option key={language.code} value={language.code} lang={language.code}>
              {language.name}
            </option>
          ))}
        </select>
      </div>
    </section>
  );
}

/** Ends this browser's session; the sign-in page is where a signed-out browser belongs. */
function SignOut({ onNotice }: { onNotice: (notice: Notice) => void }) {
  const t = useT();
  const signOut = useMutation({
    mutationFn: () => dataOf(api.POST('/_cms/api/auth/logout', { body: {} })),
    onSuccess: () => window.location.assign('/_cms/sign-in'),
    onError: (error) => onNotice({ kind: 'failed', text: messageOf(error) }),
  });
  return (
    <section aria-labelledby="sign-out-heading" className="account-section">
      <h2 id="sign-out-heading">{t('account.session')}</h2>
      <Button isDisabled={signOut.isPending} onPress={() => signOut.mutate()}>
        {t('account.signOut')}
      </Button>
    </section>
  );
}
