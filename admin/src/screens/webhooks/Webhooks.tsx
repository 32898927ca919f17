import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Switch } from 'react-aria-components';
import { api, ApiError, dataOf, refusalOf, type Schemas } from '../../api/client';
import { toggled } from '../../choices';
import type { operations } from '../../api/schema';
import { meQuery } from '../../api/queries';
import { useDateFormat, useT } from '../../i18n/i18n';
import { eventTypes } from '../../events';
import { isAdmin } from '../../roles';
import { ConfirmButton } from '../../shell/ConfirmButton';
import { FieldIssue } from '../../shell/FieldIssue';
import { SecretOnce } from '../../shell/SecretOnce';
import { messageOf, type Notice } from '../../shell/notice';
import { deliveriesQuery, subscriptionsQuery } from './queries';
import './webhooks.css';

type Subscription = Schemas['WebhookSubscription'];
type Delivery = Schemas['WebhookDelivery'];
/** What a subscription may take, as the create endpoint's body declares it. */
type EventType = NonNullable<operations['webhooks.createSubscription']['requestBody']>['content']['application/json']['events'][number];

/** Every event a subscription can take: each type, or every one (`*`). */
const eventChoices = [...eventTypes, '*'] satisfies EventType[];

/**
 * Webhooks (issue 33), for admins, through the webhooks plugin's endpoints: subscribe a URL to events
 * (its signing secret shown once), pause, delete, and each subscription's deliveries with their
 * state, timing and the start of the receiver's answer; a finished delivery can be sent again.
 */
export function Webhooks() {
  const t = useT();
  const me = useQuery(meQuery);
  const subscriptions = useQuery(subscriptionsQuery);
  const [notice, setNotice] = useState<Notice>();
  if (me.data && !isAdmin(me.data.item.role)) return <p>{t('webhooks.adminsOnly')}</p>;
  // The plugin's endpoints answer 404 while it is off or not loaded.
  if (subscriptions.error instanceof ApiError && subscriptions.error.status === 404) return <p>{t('webhooks.pluginOff')}</p>;
  return (
    <div className="webhooks">
      <h1>{t('webhooks.title')}</h1>
      <p role="status" className="screen-notice">
        {notice?.kind === 'done' ? notice.text : ''}
      </p>
      {notice?.kind === 'failed' && <p role="alert">{notice.text}</p>}
      <NewSubscription />
      <section aria-labelledby="subscriptions-heading">
        <h2 id="subscriptions-heading">{t('webhooks.subscriptions')}</h2>
        {subscriptions.isError && <p role="alert">{messageOf(subscriptions.error)}</p>}
        {subscriptions.isPending && <p>{t('loading')}</p>}
        {subscriptions.data?.items.length === 0 && <p>{t('webhooks.none')}</p>}
        {subscriptions.data?.items.map((subscription) => <SubscriptionCard key={subscription.id} subscription={subscription} onNotice={setNotice} />)}
      </section>
    </div>
  );
}

function NewSubscription() {
  const t = useT();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<EventType[]>(['content.published']);
  const [description, setDescription] = useState('');
  const [created, setCreated] = useState<{ url: string; secret: string }>();
  const create = useMutation({
    mutationFn: () => dataOf(api.POST('/_cms/api/plugins/webhooks/subscriptions', { body: { url: url.trim(), events, ...(description.trim() === '' ? {} : { description: description.trim() }), active: true } })),
    onSuccess: async ({ item, secret }) => {
      setCreated({ url: item.url, secret });
      setUrl('');
      setDescription('');
      await queryClient.invalidateQueries({ queryKey: subscriptionsQuery.queryKey });
    },
  });
  const { at: issueAt, elsewhere } = refusalOf(create.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setCreated(undefined);
    create.mutate();
  };
  const toggle = (type: EventType, on: boolean) => setEvents((current) => toggled(eventChoices, current, type, on));
  return (
    <section aria-labelledby="new-subscription-heading" className="screen-section">
      <h2 id="new-subscription-heading">{t('webhooks.new')}</h2>
      {created ? (
        <SecretOnce title={t('webhooks.secretTitle', { url: created.url })} body={t('webhooks.secretBody')} label={t('webhooks.secretLabel')} secret={created.secret} onDone={() => setCreated(undefined)} />
      ) : (
        <form className="stacked-form" onSubmit={submit}>
          <div className="setting">
            <label htmlFor="hook-url">{t('webhooks.url')}</label>
            <input id="hook-url" type="url" className="field-input" required value={url} onChange={(event) => setUrl(event.target.value)} aria-invalid={issueAt('url') ? true : undefined} aria-describedby="hook-url-error" />
            <FieldIssue id="hook-url-error" message={issueAt('url')} />
          </div>
          <fieldset className="setting choice-list" aria-invalid={issueAt('events') ? true : undefined} aria-describedby="hook-events-error">
            <legend>{t('webhooks.events')}</legend>
            {eventChoices.map((type) => (
              <label key={type}>
                <input type="checkbox" checked={events.includes(type)} onChange={(event) => toggle(type, event.target.checked)} /> {type === '*' ? t('webhooks.everyEvent') : <code>{type}</code>}
              </label>
            ))}
            <FieldIssue id="hook-events-error" message={issueAt('events')} />
          </fieldset>
          <div className="setting">
            <label htmlFor="hook-description">{t('webhooks.description')}</label>
            <input id="hook-description" className="field-input" maxLength={500} value={description} onChange={(event) => setDescription(event.target.value)} />
          </div>
          {elsewhere && <p role="alert">{elsewhere}</p>}
          <Button type="submit" className="react-aria-Button primary" isDisabled={create.isPending}>
            {t('webhooks.create')}
          </Button>
        </form>
      )}
    </section>
  );
}

function SubscriptionCard({ subscription, onNotice }: { subscription: Subscription; onNotice: (notice: Notice) => void }) {
  const t = useT();
  const queryClient = useQueryClient();
  const headingId = `hook-${subscription.id}`;
  const setActive = useMutation({
    mutationFn: (active: boolean) => dataOf(api.PATCH('/_cms/api/plugins/webhooks/subscriptions/{id}', { params: { path: { id: subscription.id } }, body: { active } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionsQuery.queryKey }),
    onError: (error) => onNotice({ kind: 'failed', text: messageOf(error) }),
  });
  const remove = async () => {
    await dataOf(api.DELETE('/_cms/api/plugins/webhooks/subscriptions/{id}', { params: { path: { id: subscription.id } }, body: {} }));
    await queryClient.invalidateQueries({ queryKey: subscriptionsQuery.queryKey });
    onNotice({ kind: 'done', text: t('webhooks.deleted', { url: subscription.url }) });
  };
  return (
    <section aria-labelledby={headingId} className="webhook">
      <h3 id={headingId}>{subscription.url}</h3>
      {subscription.description && <p>{subscription.description}</p>}
      <p>{t('webhooks.takes', { events: subscription.events.map((type) => (type === '*' ? t('webhooks.everyEvent') : type)).join(', ') })}</p>
      <div className="webhook-actions">
        <Switch className="setting-switch" isSelected={subscription.active} isDisabled={setActive.isPending} onChange={(active) => setActive.mutate(active)}>
          <span className="switch-track" aria-hidden="true" />
          {t('webhooks.active', { url: subscription.url })}
        </Switch>
        <ConfirmButton
          label={t('webhooks.delete')}
          ariaLabel={t('webhooks.deleteLabel', { url: subscription.url })}
          title={t('webhooks.deleteTitle', { url: subscription.url })}
          body={t('webhooks.deleteBody')}
          confirmLabel={t('webhooks.deleteConfirm')}
          onConfirm={remove}
        />
      </div>
      <Deliveries subscription={subscription} onNotice={onNotice} />
    </section>
  );
}

function Deliveries({ subscription, onNotice }: { subscription: Subscription; onNotice: (notice: Notice) => void }) {
  const t = useT();
  const date = useDateFormat();
  const queryClient = useQueryClient();
  const deliveries = useQuery(deliveriesQuery(subscription.id));
  const redeliver = useMutation({
    mutationFn: (delivery: Delivery) => dataOf(api.POST('/_cms/api/plugins/webhooks/deliveries/{id}/redeliver', { params: { path: { id: delivery.id } }, body: {} })),
    onSuccess: async ({ item }) => {
      await queryClient.invalidateQueries({ queryKey: deliveriesQuery(subscription.id).queryKey });
      onNotice({ kind: 'done', text: t('webhooks.redelivering', { event: item.eventType }) });
    },
    onError: (error) => onNotice({ kind: 'failed', text: messageOf(error) }),
  });
  const items = deliveries.data?.items ?? [];
  const captionId = `deliveries-${subscription.id}`;
  return (
    <>
      <h4 id={captionId}>{t('webhooks.deliveries')}</h4>
      {deliveries.isError && <p role="alert">{messageOf(deliveries.error)}</p>}
      {deliveries.data && items.length === 0 && <p>{t('webhooks.noDeliveries')}</p>}
      {items.length > 0 && (
        <table className="data-table" aria-labelledby={captionId}>
          <thead>
            <tr>
              <th scope="col">{t('webhooks.column.event')}</th>
              <th scope="col">{t('webhooks.column.state')}</th>
              <th scope="col">{t('webhooks.column.attempts')}</th>
              <th scope="col">{t('webhooks.column.answer')}</th>
              <th scope="col">{t('webhooks.column.when')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('webhooks.column.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((delivery) => {
              const last = delivery.log.at(-1);
              const finished = delivery.state === 'succeeded' || delivery.state === 'failed';
              return (
                <tr key={delivery.id}>
                  <th scope="row">
                    <code>{delivery.eventType}</code>
                  </th>
                  <td>{t('webhooks.state', { state: delivery.state })}</td>
                  <td>{delivery.attempts}</td>
                  <td>
                    {last ? (
                      <>
                        {t('webhooks.answer', { status: last.statusCode ?? 'none', ms: last.durationMs })}
                        {last.error && <span className="webhook-error"> {last.error}</span>}
                        {last.responseExcerpt && <pre className="webhook-excerpt">{last.responseExcerpt}</pre>}
                      </>
                    ) : (
                      t('webhooks.notYet')
                    )}
                  </td>
                  <td>{date(delivery.createdAt)}</td>
                  <td>
                    {finished && (
                      <Button aria-label={t('webhooks.redeliverLabel', { event: delivery.eventType, when: date(delivery.createdAt) })} isDisabled={redeliver.isPending} onPress={() => redeliver.mutate(delivery)}>
                        {t('webhooks.redeliver')}
                      </Button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </>
  );
}
