import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, FieldError, Form, Input, Label, Switch, Text, TextField } from 'react-aria-components';
import { api, ApiError, dataOf, issuesOf, type Schemas } from '../../api/client';
import { meQuery, settingsQuery } from '../../api/queries';
import type { MessageId } from '../../i18n/en';
import { useT, type Translate } from '../../i18n/i18n';
import { isAdmin } from '../../roles';
import './settings.css';

/** What `GET /settings` answers an admin (the public gets them without `publicRead`). */
type SiteSettings = Omit<Schemas['Settings'], 'publicRead'> & { publicRead?: boolean };

/** The form's values: text as typed, the locales as one comma-separated line. */
interface Draft {
  siteTitle: string;
  tagline: string;
  siteUrl: string;
  postsPerPage: string;
  timezone: string;
  defaultLocale: string;
  locales: string;
  publicRead: boolean;
}

/** The settings typed as text (all but the switch). */
type TextSetting = Exclude<keyof Draft, 'publicRead'>;

/** Each text setting's label and, where one helps, its hint. */
const labels: Record<TextSetting, { label: MessageId; hint?: MessageId }> = {
  siteTitle: { label: 'settings.siteTitle' },
  tagline: { label: 'settings.tagline' },
  siteUrl: { label: 'settings.siteUrl', hint: 'settings.siteUrl.hint' },
  postsPerPage: { label: 'settings.postsPerPage' },
  timezone: { label: 'settings.timezone', hint: 'settings.timezone.hint' },
  defaultLocale: { label: 'settings.defaultLocale' },
  locales: { label: 'settings.locales', hint: 'settings.locales.hint' },
};

const draftOf = (settings: SiteSettings): Draft => ({
  siteTitle: settings.siteTitle,
  tagline: settings.tagline,
  siteUrl: settings.siteUrl,
  postsPerPage: String(settings.postsPerPage),
  timezone: settings.timezone,
  defaultLocale: String(settings.defaultLocale),
  locales: settings.locales.map(String).join(', '),
  publicRead: settings.publicRead === true,
});

/** What the form sends: every setting (`POST /settings` merges them), a count as a number where it is one. */
const bodyOf = (draft: Draft) => ({
  siteTitle: draft.siteTitle,
  tagline: draft.tagline,
  siteUrl: draft.siteUrl.trim(),
  postsPerPage: Number(draft.postsPerPage),
  timezone: draft.timezone.trim(),
  defaultLocale: draft.defaultLocale.trim(),
  locales: draft.locales
    .split(',')
    .map((locale) => locale.trim())
    .filter((locale) => locale !== ''),
  publicRead: draft.publicRead,
});

/**
 * The site's settings (issue 33), for admins: every key of DECISIONS §3b in one form, saved with
 * `POST /settings`; what the server refuses is shown at its field (the 400's `details.issues`).
 */
export function Settings() {
  const t = useT();
  const me = useQuery(meQuery);
  const settings = useQuery(settingsQuery);
  if (me.data && !isAdmin(me.data.item.role)) return <p>{t('settings.adminsOnly')}</p>;
  if (settings.error) return <p role="alert">{settings.error.message}</p>;
  if (!settings.data) return <p>{t('loading')}</p>;
  return <SettingsForm initial={draftOf(settings.data)} t={t} />;
}

function SettingsForm({ initial, t }: { initial: Draft; t: Translate }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (body: ReturnType<typeof bodyOf>) => dataOf(api.POST('/_cms/api/settings', { body })),
    onSuccess: (saved) => {
      setErrors({});
      queryClient.setQueryData(settingsQuery.queryKey, saved);
      setDraft(draftOf(saved));
    },
    onError: (error) => {
      // `locales.1` is the locales field's problem.
      const byField: Record<string, string> = {};
      for (const issue of issuesOf(error)) byField[issue.path.split('.')[0]!] ??= issue.message;
      setErrors(byField);
    },
  });
  // An edited field drops the server's complaint about it: the form can then be sent again.
  const edit = (key: keyof Draft) => (value: string) => {
    setDraft((current) => ({ ...current, [key]: value }));
    setErrors((current) => (key in current ? Object.fromEntries(Object.entries(current).filter(([name]) => name !== key)) : current));
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate(bodyOf(draft));
  };
  const text = (key: TextSetting, options: { type?: string; required?: boolean } = {}) => (
    <TextField className="setting" name={key} type={options.type} isRequired={options.required} value={draft[key]} onChange={edit(key)}>
      <Label>{t(labels[key].label)}</Label>
      <Input className="field-input" />
      {labels[key].hint && <Text slot="description" className="setting-hint">{t(labels[key].hint)}</Text>}
      <FieldError className="setting-error" />
    </TextField>
  );
  // A refusal naming no field (a lost connection, a 403) is said once, above nothing in particular.
  const failedElsewhere = save.error && issuesOf(save.error).length === 0 ? save.error : undefined;
  return (
    <div className="settings">
      <h1>{t('settings.title')}</h1>
      <Form onSubmit={submit} validationErrors={errors} className="settings-form">
        {text('siteTitle')}
        {text('tagline')}
        {text('siteUrl', { type: 'url' })}
        {text('postsPerPage', { type: 'number', required: true })}
        {text('timezone', { required: true })}
        {text('defaultLocale', { required: true })}
        {text('locales', { required: true })}
        <div className="setting">
          <Switch className="setting-switch" isSelected={draft.publicRead} onChange={(publicRead) => setDraft((current) => ({ ...current, publicRead }))} aria-describedby="public-read-hint">
            <span className="switch-track" aria-hidden="true" />
            {t('settings.publicRead')}
          </Switch>
          <p id="public-read-hint" className="setting-hint">
            {t('settings.publicRead.hint')}
          </p>
        </div>
        <Button type="submit" className="primary" isDisabled={save.isPending}>
          {t('settings.save')}
        </Button>
      </Form>
      <p role="status">{save.isSuccess && !save.isPending ? t('settings.saved') : ''}</p>
      {failedElsewhere && <p role="alert">{t('settings.failed', { message: failedElsewhere instanceof ApiError ? failedElsewhere.message : String(failedElsewhere) })}</p>}
    </div>
  );
}
