import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection } from './support/content.ts';
import { createTestApp, expectError, type ApiResponse, type TestApp } from './support/harness.ts';

/**
 * Issue 8: many large bodies read at once must not take the process's memory. JSON bodies being read
 * draw on one budget (BODY_MEMORY_LIMIT); past it a request gets 503 with Retry-After at once.
 */
const size = 400 * 1024;
let t: TestApp;

beforeAll(async () => {
  // Room for two bodies of `size` (each holds its bytes and then its text) but not three.
  t = await createTestApp({ BODY_LIMIT: '500kb', BODY_MEMORY_LIMIT: `${(5 * size) / 1024}kb` });
  await createCollection(t, 'notes', [{ slug: 'body', type: 'text' }]);
});
afterAll(() => t.close());

/** A JSON body of exactly `size` bytes whose sending the test controls: the head now, the rest on `finish`. */
function heldBody() {
  const text = JSON.stringify({ data: { body: '' } });
  const json = Buffer.from(`${text.slice(0, -3)}${'a'.repeat(size - text.length)}"}}`);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(new Uint8Array(json.subarray(0, 1024)));
      await released;
      controller.enqueue(new Uint8Array(json.subarray(1024)));
      controller.close();
    },
  });
  return { stream, finish: release };
}

function post(body: ReadableStream<Uint8Array> | string, declared: boolean): Promise<ApiResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (declared) headers['content-length'] = String(size);
  return t.request('POST', `${api}/content/notes`, { token: t.adminToken, rawBody: body, headers });
}

describe('the body memory budget', () => {
  it('refuses a body past the budget with 503 and Retry-After, and takes it again once memory is free', async () => {
    const first = heldBody();
    const second = heldBody();
    const firstAnswer = post(first.stream, true);
    const secondAnswer = post(second.stream, true);
    // Both are being read (their lengths reserved): a third declared body finds no room.
    const refused = await pollUntil(async () => {
      const third = heldBody();
      third.finish();
      const answer = await post(third.stream, true);
      return answer.status === 503 ? answer : undefined;
    });
    expectError(refused, 503, 'SERVICE_UNAVAILABLE');
    expect(refused.headers.get('retry-after')).toBe('1');

    first.finish();
    second.finish();
    expect((await firstAnswer).status).toBe(201);
    expect((await secondAnswer).status).toBe(201);
    const again = heldBody();
    again.finish();
    expect((await post(again.stream, true)).status).toBe(201);
  });

  it('counts a chunked body as it arrives', async () => {
    const first = heldBody();
    const second = heldBody();
    const answers = [post(first.stream, true), post(second.stream, true)];
    const refused = await pollUntil(async () => {
      const chunked = heldBody();
      chunked.finish();
      const answer = await post(chunked.stream, false);
      return answer.status === 503 ? answer : undefined;
    });
    expectError(refused, 503, 'SERVICE_UNAVAILABLE');
    first.finish();
    second.finish();
    for (const answer of answers) expect((await answer).status).toBe(201);
  });
});

/** Retries `attempt` until it gives a value, within a deadline (the held requests reach the body read asynchronously). */
async function pollUntil<T>(attempt: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not reached before the deadline');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
