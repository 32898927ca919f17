import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultTransformLimits, overrideTransformLimits } from '../src/media/transform-limits.ts';
import { createTestApp, expectError, issuePaths, type ApiResponse, type TestApp } from './support/harness.ts';
import { until } from './support/poll.ts';
import { getFile, startTestStorage, testImage, uploadMedia, type TestStorage } from './support/media.ts';

/**
 * Issue 36, defect 4: what an on-the-fly transform may cost (decisions/0033). Public URLs choose the
 * variant, so each bound is met here as a stranger meets it: over HTTP, on both databases.
 */

const tenMinutes = 10 * 60_000;

/** A new JPEG each call, a pixel wider than the last (the same bytes twice would be one media item). */
let distinct = 0;
async function smallImage(t: TestApp, width = 64, height = 48): Promise<{ id: string; url: string }> {
  distinct += 1;
  const bytes = await sharp({ create: { width: width + distinct, height, channels: 3, background: '#808080' } })
    .jpeg()
    .toBuffer();
  return uploadMedia(t, bytes, { filename: `small-${distinct}.jpg`, type: 'image/jpeg' });
}

function fromAddress(address: string): Record<string, string> {
  return { 'x-forwarded-for': address };
}

function expectRetryAfter(response: ApiResponse, status: number, code: string): number {
  expectError(response, status, code);
  const seconds = Number(response.headers.get('retry-after'));
  expect(seconds).toBeGreaterThan(0);
  return seconds;
}

describe('image transform limits', () => {
  let t: TestApp;
  let storage: TestStorage;
  beforeAll(async () => {
    storage = await startTestStorage('local');
    // One trusted proxy, so each test may speak from addresses of its own.
    t = await createTestApp({ ...storage.env, TRUST_PROXY: '1' });
  });
  afterAll(async () => {
    await t.close();
    await storage.close();
  });

  describe('an 8000 × 8000 PNG of a few kilobytes (the issue’s case)', () => {
    let huge: { id: string; url: string; size: number };
    beforeAll(async () => {
      const bytes = await sharp({ create: { width: 8000, height: 8000, channels: 3, background: '#3366cc' } }).png().toBuffer();
      huge = await uploadMedia(t, bytes, { filename: 'huge.png' });
    });

    it('refuses w=4096&h=4096&format=avif with a 400 naming w and h, before decoding anything', async () => {
      const response = await getFile(t, `${huge.url}?w=4096&h=4096&format=avif`, fromAddress('198.51.100.1'));
      expect(issuePaths(response)).toEqual(['w', 'h']);
      expect(response.body.error.details.issues[0].message).toMatch(/AVIF is rendered up to 2\.1 megapixels/);
      expect((await storage.keys()).filter((key) => key.startsWith(`_derived/${huge.id}/`))).toEqual([]);
    });

    it('renders other variants from one stored master within the pixel budget', async () => {
      const large = await getFile(t, `${huge.url}?w=4096&h=4096&format=webp`, fromAddress('198.51.100.1'));
      expect(large.status).toBe(200);
      const { width, height } = await sharp(large.bytes).metadata();
      // The master holds at most the budget's pixels, and variants are never enlarged past it.
      expect(width).toBe(height);
      expect(width! * height!).toBeLessThanOrEqual(defaultTransformLimits.renderPixels);
      expect(width).toBeGreaterThan(2800);
      const small = await getFile(t, `${huge.url}?w=1200&format=avif`, fromAddress('198.51.100.1'));
      expect(small.status).toBe(200);
      expect(await sharp(small.bytes).metadata()).toMatchObject({ format: 'heif', width: 1200, height: 1200 });
      const derived = (await storage.keys()).filter((key) => key.startsWith(`_derived/${huge.id}/`));
      expect(derived.filter((key) => key.endsWith('-master.webp'))).toHaveLength(1);
      expect(derived).toHaveLength(3);
    });
  });

  it('refuses an output over the budget with a 400 naming what asks for it', async () => {
    const item = await smallImage(t, 1920, 1200);
    // contain letterboxes to the whole box: 16.8 megapixels whatever the source.
    expect(issuePaths(await getFile(t, `${item.url}?w=4096&h=4096&fit=contain`, fromAddress('198.51.100.2')))).toEqual(['w', 'h']);
    // The source's own size as AVIF is 2.3 megapixels: nothing but the format asks for it.
    expect(issuePaths(await getFile(t, `${item.url}?format=avif`, fromAddress('198.51.100.2')))).toEqual(['format']);
    expect((await getFile(t, `${item.url}?w=1600&format=avif`, fromAddress('198.51.100.2'))).status).toBe(200);
  });

  it('caps new variants of one file per window with 429 and Retry-After, serves the made ones, and allows more in the next window', async () => {
    const item = await smallImage(t);
    const cap = defaultTransformLimits.newVariantsPerSource.limit;
    // From several addresses, so only the file's own cap is met.
    for (let width = 1; width <= cap; width += 1) expect((await getFile(t, `${item.url}?w=${width}`, fromAddress(`203.0.113.${width}`))).status).toBe(200);
    const refused = await getFile(t, `${item.url}?w=${cap + 1}`, fromAddress('203.0.113.200'));
    expect(expectRetryAfter(refused, 429, 'RATE_LIMITED')).toBeLessThanOrEqual(tenMinutes / 1000);
    expect(refused.body.error.message).toMatch(/This file had 24 new variants made within 10 minutes/);
    expect((await getFile(t, `${item.url}?w=3`, fromAddress('203.0.113.200'))).status).toBe(200);
    t.clock.advance(tenMinutes);
    expect((await getFile(t, `${item.url}?w=${cap + 1}`, fromAddress('203.0.113.200'))).status).toBe(200);
  });

  it('serves the original and stored variants whatever the caps', async () => {
    const item = await smallImage(t);
    expect((await getFile(t, `${item.url}?w=10`, fromAddress('192.0.2.77'))).status).toBe(200);
    const limited = overrideTransformLimits(t.config, { newVariantsPerClient: { name: 'media-variant-client-stored', limit: 0, windowMs: tenMinutes } });
    try {
      expectRetryAfter(await getFile(t, `${item.url}?w=11`, fromAddress('192.0.2.77')), 429, 'RATE_LIMITED');
      expect((await getFile(t, `${item.url}?w=10`, fromAddress('192.0.2.77'))).status).toBe(200);
      expect((await getFile(t, item.url, fromAddress('192.0.2.77'))).status).toBe(200);
      expect(limited.queue.waitingCount).toBe(0);
    } finally {
      overrideTransformLimits(t.config, {});
    }
  });
});

describe('image transform limits per client and on the queue', () => {
  let t: TestApp;
  let storage: TestStorage;
  beforeAll(async () => {
    storage = await startTestStorage('local');
    t = await createTestApp({ ...storage.env, TRUST_PROXY: '1' });
  });
  afterAll(async () => {
    await t.close();
    await storage.close();
  });

  it('caps new variants per client address with 429 and Retry-After; another address and a later window are allowed', async () => {
    overrideTransformLimits(t.config, { newVariantsPerClient: { ...defaultTransformLimits.newVariantsPerClient, limit: 4 } });
    const items = await Promise.all([smallImage(t), smallImage(t), smallImage(t)]);
    const asked = (index: number) => `${items[index % items.length]!.url}?w=${10 + index}`;
    for (let index = 0; index < 4; index += 1) expect((await getFile(t, asked(index), fromAddress('198.51.100.9'))).status).toBe(200);
    const refused = await getFile(t, asked(4), fromAddress('198.51.100.9'));
    const retryAfter = expectRetryAfter(refused, 429, 'RATE_LIMITED');
    expect(refused.body.error.message).toMatch(/This client asked for 4 new image variants within 10 minutes/);
    expect((await getFile(t, asked(4), fromAddress('198.51.100.10'))).status).toBe(200);
    expect((await getFile(t, asked(5), fromAddress('198.51.100.9'))).status).toBe(429);
    t.clock.advance(retryAfter * 1000);
    expect((await getFile(t, asked(5), fromAddress('198.51.100.9'))).status).toBe(200);
  });

  it('answers 503 with Retry-After when the rendering queue is full, and still serves stored variants', async () => {
    const { queue } = overrideTransformLimits(t.config, { queue: { slots: 1, maxWaiting: 1, maxWaitMs: 60_000 } });
    const item = await smallImage(t);
    expect((await getFile(t, `${item.url}?w=20`)).status).toBe(200);
    let release!: () => void;
    const held = queue.run(() => new Promise<void>((resolve) => (release = resolve)));
    try {
      const waiting = getFile(t, `${item.url}?w=21`);
      await until(() => queue.waitingCount === 1, 'a rendering waiting for the slot');
      const refused = await getFile(t, `${item.url}?w=22`);
      expect(expectRetryAfter(refused, 503, 'SERVICE_UNAVAILABLE')).toBe(60);
      expect((await getFile(t, `${item.url}?w=20`)).status).toBe(200);
      release();
      expect((await waiting).status).toBe(200);
    } finally {
      release();
      await held;
    }
  });

  it('answers 503 with Retry-After when no slot comes free before the deadline', async () => {
    const { queue } = overrideTransformLimits(t.config, { queue: { slots: 1, maxWaiting: 4, maxWaitMs: 50 } });
    const item = await smallImage(t);
    let release!: () => void;
    const held = queue.run(() => new Promise<void>((resolve) => (release = resolve)));
    try {
      const refused = await getFile(t, `${item.url}?w=30`);
      expect(expectRetryAfter(refused, 503, 'SERVICE_UNAVAILABLE')).toBe(1);
      expect(refused.body.error.message).toMatch(/no rendering slot came free within 50 ms/);
      expect(queue.waitingCount).toBe(0);
    } finally {
      release();
      await held;
    }
    expect((await getFile(t, `${item.url}?w=30`)).status).toBe(200);
  });

  it('gives a heavy rendering every slot, so it never runs beside another', async () => {
    const { queue } = overrideTransformLimits(t.config, { queue: { slots: 2, maxWaiting: 4, maxWaitMs: 60_000 } });
    const item = await testImageItem(t);
    let release!: () => void;
    const held = queue.run(() => new Promise<void>((resolve) => (release = resolve)));
    try {
      // One slot of two is free: a light rendering takes it, an AVIF over a megapixel waits for both.
      expect((await getFile(t, `${item.url}?w=100`)).status).toBe(200);
      const heavy = getFile(t, `${item.url}?w=1400&format=avif`);
      await until(() => queue.waitingCount === 1, 'the AVIF rendering waiting for every slot');
      release();
      expect((await heavy).status).toBe(200);
    } finally {
      release();
      await held;
    }
  });
});

async function testImageItem(t: TestApp): Promise<{ id: string; url: string }> {
  return uploadMedia(t, await testImage(1500, 1000), { filename: 'photo.jpg', type: 'image/jpeg' });
}
