import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Switch } from 'react-aria-components';
import { api, dataOf, refusalOf, type Schemas } from '../../api/client';
import { meQuery } from '../../api/queries';
import { useT } from '../../i18n/i18n';
import { isAdmin } from '../../roles';
import { FieldIssue } from '../../shell/FieldIssue';
import { messageOf } from '../../shell/notice';
import { pluginSettingsQuery, pluginsQuery } from './queries';
import { formFields, formValues, settingsOf, type FormField, type FormValue, type ObjectSchema } from './schema-form';
import './plugins.css';

type Plugin = Schemas['Plugin'];

/**
 * The loaded plugins (issue 33), for admins: each switched on or off for every server process, with
 * what it listens to and serves, and its settings in a form made from its settings schema; what the
 * plugin's schema refuses is shown at the field it names.
 */
export function Plugins() {
  const t = useT();
  const me = useQuery(meQuery);
  const plugins = useQuery(pluginsQuery);
  if (me.data && !isAdmin(me.data.item.role)) return <p>{t('plugins.adminsOnly')}</p>;
  return (
    <div className="plugins">
      <h1>{t('plugins.title')}</h1>
      {plugins.isError && <p role="alert">{messageOf(plugins.error)}</p>}
      {plugins.isPending && <p>{t('loading')}</p>}
      {plugins.data?.items.length === 0 && <p>{t('plugins.none')}</p>}
      {plugins.data?.items.map((plugin) => <PluginCard key={plugin.id} plugin={plugin} />)}
    </div>
  );
}

function PluginCard({ plugin }: { plugin: Plugin }) {
  const t = useT();
  const queryClient = useQueryClient();
  const headingId = `plugin-${plugin.id}`;
  const toggle = useMutation({
    mutationFn: (on: boolean) => dataOf(api.POST(on ? '/_cms/api/plugins/{pluginId}/enable' : '/_cms/api/plugins/{pluginId}/disable', { params: { path: { pluginId: plugin.id } }, body: {} })),
    onSuccess: ({ item }) => queryClient.setQueryData(pluginsQuery.queryKey, (current) => current && { items: current.items.map((candidate) => (candidate.id === item.id ? item : candidate)) }),
  });
  return (
    <section aria-labelledby={headingId} className="plugin">
      <h2 id={headingId}>
        {plugin.name} <span className="plugin-version">{plugin.version}</span>
      </h2>
      <p>{plugin.description}</p>
      <Switch className="setting-switch" isSelected={plugin.enabled} isDisabled={toggle.isPending} onChange={(on) => toggle.mutate(on)}>
        <span className="switch-track" aria-hidden="true" />
        {t('plugins.enabled', { name: plugin.name })}
      </Switch>
      {toggle.isError && <p role="alert">{messageOf(toggle.error)}</p>}
      <details className="plugin-details">
        <summary>{t('plugins.details')}</summary>
        <dl>
          <dt>{t('plugins.source')}</dt>
          <dd>
            <code>{plugin.source}</code>
          </dd>
          <dt>{t('plugins.hooks')}</dt>
          <dd>{plugin.hooks.length > 0 ? plugin.hooks.map((hook) => <code key={hook}>{hook}</code>) : t('plugins.noneListed')}</dd>
          <dt>{t('plugins.routes')}</dt>
          <dd>{plugin.routes.length > 0 ? plugin.routes.map((route) => <code key={`${route.method} ${route.path}`}>{`${route.method} /_cms/api${route.path}`}</code>) : t('plugins.noneListed')}</dd>
        </dl>
      </details>
      {plugin.settingsSchema && <PluginSettings plugin={plugin} schema={plugin.settingsSchema as ObjectSchema} />}
    </section>
  );
}

function PluginSettings({ plugin, schema }: { plugin: Plugin; schema: ObjectSchema }) {
  const t = useT();
  const settings = useQuery(pluginSettingsQuery(plugin.id));
  const fields = formFields(schema);
  if (settings.isError) return <p role="alert">{messageOf(settings.error)}</p>;
  if (!settings.data) return <p>{t('loading')}</p>;
  return <SettingsForm plugin={plugin} fields={fields} initial={formValues(fields, settings.data.settings)} />;
}

function SettingsForm({ plugin, fields, initial }: { plugin: Plugin; fields: FormField[]; initial: Record<string, FormValue> }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(initial);
  const [unreadable, setUnreadable] = useState<string[]>([]);
  const save = useMutation({
    mutationFn: (settings: Record<string, unknown>) => dataOf(api.PUT('/_cms/api/plugins/{pluginId}/settings', { params: { path: { pluginId: plugin.id } }, body: settings })),
    onSuccess: (saved) => {
      queryClient.setQueryData(pluginSettingsQuery(plugin.id).queryKey, saved);
      setValues(formValues(fields, saved.settings));
    },
  });
  const refusal = refusalOf(save.error);
  const issueAt = (key: string) => (unreadable.includes(key) ? t('plugins.notJson') : refusal.at(key));
  const elsewhere = refusal.elsewhere;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const made = settingsOf(fields, values);
    if ('invalid' in made) {
      setUnreadable(made.invalid);
      return;
    }
    setUnreadable([]);
    save.mutate(made.settings);
  };
  const edit = (key: string, value: FormValue) => {
    setValues((current) => ({ ...current, [key]: value }));
    setUnreadable((current) => current.filter((candidate) => candidate !== key));
  };
  return (
    <form className="plugin-settings" onSubmit={submit} aria-label={t('plugins.settingsOf', { name: plugin.name })}>
      <h3>{t('plugins.settings')}</h3>
      {fields.map((field) => (
        <SettingField key={field.key} id={`${plugin.id}-${field.key}`} field={field} value={values[field.key] ?? ''} issue={issueAt(field.key)} onChange={(value) => edit(field.key, value)} />
      ))}
      {elsewhere && <p role="alert">{t('plugins.saveFailed', { message: elsewhere })}</p>}
      <Button type="submit" className="react-aria-Button primary" isDisabled={save.isPending}>
        {t('plugins.save', { name: plugin.name })}
      </Button>
      <p role="status">{save.isSuccess && !save.isPending ? t('plugins.saved', { name: plugin.name }) : ''}</p>
    </form>
  );
}

function SettingField({ id, field, value, issue, onChange }: { id: string; field: FormField; value: FormValue; issue: string | undefined; onChange: (value: FormValue) => void }) {
  const t = useT();
  const described = `${id}-hint ${id}-error`;
  const invalid = issue ? true : undefined;
  const common = { id, 'aria-describedby': described, 'aria-invalid': invalid };
  const text = typeof value === 'string' ? value : '';
  const input =
    field.kind === 'boolean' ? (
      <input {...common} type="checkbox" checked={value === true} onChange={(event) => onChange(event.target.checked)} />
    ) : field.kind === 'choice' ? (
      <select {...common} className="field-input" value={text} required={field.required} onChange={(event) => onChange(event.target.value)}>
        {!field.required && <option value="">{t('plugins.default')}</option>}
        {(field.schema.enum as string[]).map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    ) : field.kind === 'json' ? (
      <textarea {...common} className="field-input plugin-json" rows={4} value={text} required={field.required} onChange={(event) => onChange(event.target.value)} />
    ) : (
      // No min or max from the schema: the plugin's own check answers, in its words, at the field.
      <input
        {...common}
        className="field-input"
        type={field.kind === 'text' ? 'text' : 'number'}
        step={field.kind === 'integer' ? 1 : 'any'}
        value={text}
        required={field.required}
        onChange={(event) => onChange(event.target.value)}
      />
    );
  return (
    <div className={field.kind === 'boolean' ? 'setting plugin-checkbox' : 'setting'}>
      <label htmlFor={id}>{field.label}</label>
      {input}
      <p id={`${id}-hint`} className="setting-hint">
        {field.schema.description ?? ''}
      </p>
      <FieldIssue id={`${id}-error`} message={issue} />
    </div>
  );
}
