import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryDelayMs } from '../src/plugins/webhooks/worker.ts';
import { api, createCollection } from './support/content.ts';
import { eventually, expectAccessible, expectAdminsOnly, panelSuite, signedInPage } from './support/panel.ts';
import { deliveryWorker, startReceiver } from './support/plugins.ts';

/**
 * The panel's webhooks screen (issue 33), in Debian's chromium, with the webhooks plugin loaded (and
 * switched off) and a receiver on loopback: an admin switches the plugin on, subscribes the receiver
 * to publications (the signing secret shown once), publishes an entry, sees the refused delivery with
 * the receiver's words and then delivered, sends it again, pauses and deletes the subscription, each
 * as the API then reads it; an Editor is offered none of it.
 */
const panel = panelSuite({ plugins: ['webhooks'], env: { OUTGOING_ALLOW_PRIVATE_ADDRESSES: 'true' } });
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.close());

const hooks = `${api}/plugins/webhooks`;
const subscriptions = async () => (await panel.t.request('GET', `${hooks}/subscriptions`, { token: panel.t.adminToken })).body.data.items;

describe('the webhooks screen', () => {
  it('switches the plugin on, subscribes a URL, shows a publication refused by the receiver with its answer, sends one again, pauses and deletes', { timeout: 60_000 }, async () => {
    const t = panel.t;
    await createCollection(t, 'posts', [{ slug: 'title', type: 'string' }]);
    expect((await t.request('POST', `${api}/plugins/webhooks/disable`, { token: t.adminToken })).status).toBe(200);
    const { context, page } = await signedInPage(panel.browser, panel.server, t.admin.id);
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: panel.server.origin });
      await page.goto(panel.server.url('/'));
      const navigation = page.getByRole('navigation', { name: 'Main' });
      await navigation.getByRole('link', { name: 'Plugins' }).click();
      const plugin = page.getByRole('region', { name: /^Webhooks/ });
      // The switch's label says what it sets: "on", checked or not.
      expect(await plugin.getByRole('switch', { name: 'Webhooks is on' }).isChecked()).toBe(false);
      await plugin.getByText('Webhooks is on').click();
      await eventually(async () => (await t.request('GET', `${api}/plugins/webhooks`, { token: t.adminToken })).body.data.item.enabled).toBe(true);
      await navigation.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
      await page.getByRole('textbox', { name: 'Address that receives the events' }).fill(receiver.url);
      expect(await page.getByRole('checkbox', { name: 'content.published' }).isChecked()).toBe(true);
      await page.getByRole('textbox', { name: 'Description' }).fill('Rebuild the site');
      await expectAccessible(page, 'webhooks');
      await page.getByRole('button', { name: 'Subscribe' }).click();

      const secret = page.getByRole('textbox', { name: 'The signing secret' });
      await eventually(() => secret.inputValue()).toMatch(/^whsec_/);
      await page.getByRole('button', { name: 'Done' }).click();
      const [subscription] = await subscriptions();
      expect(subscription).toMatchObject({ url: receiver.url, events: ['content.published'], description: 'Rebuild the site', active: true });
      const card = page.getByRole('region', { name: receiver.url });
      await eventually(() => card.getByText('Takes: content.published').count()).toBe(1);

      // The first attempt is refused with a reason; the screen shows the receiver's words.
      receiver.plan.push({ status: 503, body: 'Down for maintenance' });
      expect((await t.request('POST', `${api}/content/posts`, { token: t.adminToken, body: { data: { title: 'Hello' }, status: 'published' } })).status).toBe(201);
      const worker = deliveryWorker(t);
      expect(await worker.runDue()).toBe(1);
      await page.reload();
      const row = card.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'content.published' }) });
      await eventually(() => row.getByRole('cell').first().textContent()).toBe('Waiting');
      expect(await row.getByRole('cell').nth(1).textContent()).toBe('1');
      expect(await row.getByRole('cell').nth(2).textContent()).toMatch(/^HTTP 503 in \d+ ms HTTP 503Down for maintenance$/);
      expect(await row.getByRole('button', { name: /^Send again: content\.published of / }).count()).toBe(0);

      t.clock.advance(retryDelayMs(1));
      expect(await worker.runDue()).toBe(1);
      await page.reload();
      await eventually(() => row.getByRole('cell').first().textContent()).toBe('Delivered');
      await expectAccessible(page, 'webhooks: deliveries');
      await row.getByRole('button', { name: /^Send again: content\.published of / }).click();
      await eventually(() => page.getByRole('status').first().textContent()).toBe('content.published is queued to be sent again.');
      const deliveries = (await t.request('GET', `${hooks}/subscriptions/${subscription.id}/deliveries`, { token: t.adminToken })).body.data.items;
      expect(deliveries.map((delivery: { state: string }) => delivery.state)).toEqual(['pending']);

      await card.getByText(`Deliveries to ${receiver.url} are on`).click();
      await eventually(async () => (await subscriptions())[0].active).toBe(false);
      // The screen reads the subscription again after the change.
      await eventually(() => card.getByRole('switch', { name: `Deliveries to ${receiver.url} are on` }).isChecked()).toBe(false);

      await card.getByRole('button', { name: `Delete the subscription of ${receiver.url}` }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete subscription' }).click();
      await eventually(() => page.getByRole('status').first().textContent()).toBe(`The subscription of ${receiver.url} is deleted.`);
      expect(await subscriptions()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('offers an Editor no webhooks, and says so at its address', { timeout: 60_000 }, async () => {
    await expectAdminsOnly(panel.browser, panel.server, { path: '/webhooks', link: 'Webhooks', says: 'Only administrators manage webhooks.', action: 'Subscribe' });
  });
});
