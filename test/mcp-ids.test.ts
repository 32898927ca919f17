import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createCollection, createEntry } from './support/content.ts';
import { createTestApp, type TestApp } from './support/harness.ts';

/**
 * JSON-RPC ids are the client's own strings, echoed as they came. Stored JSON (portableText, json…)
 * is spliced into responses as text (core/raw-json.ts); no id may be taken for a place to splice.
 */
let t: TestApp;
let entryId: string;

beforeAll(async () => {
  t = await createTestApp();
  await createCollection(t, 'notes', [{ slug: 'title', type: 'string' }, { slug: 'extra', type: 'json' }]);
  entryId = (await createEntry(t, 'notes', { data: { title: 'Hello', extra: { nested: [1, 'two'] } } })).id;
});
afterAll(() => t.close());

const ids = ['\u00000', '\u00009', '\ud8000', '"\u0000"', '\\u00000', '\ud800'];

function call(id: string) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'content_get', arguments: { collection: 'notes', id: entryId } } };
}

async function post(body: unknown) {
  const response = await t.request('POST', `${api}/mcp`, { token: t.adminToken, headers: { accept: 'application/json' }, body });
  expect(response.status).toBe(200);
  return response;
}

describe('MCP request ids', () => {
  it.each(ids.map((id) => [JSON.stringify(id), id]))('echoes the id %s untouched, with the result intact', async (_name, id) => {
    const response = await post(call(id));
    expect(response.body.id).toBe(id);
    expect(response.body.result.structuredContent.item.data).toEqual({ title: 'Hello', extra: { nested: [1, 'two'] } });
    expect(JSON.parse(response.body.result.content[0].text).item.data.extra).toEqual({ nested: [1, 'two'] });
  });

  it('echoes every id of a batch untouched', async () => {
    const response = await post(ids.map(call));
    expect(response.body.map((answer: { id: string }) => answer.id)).toEqual(ids);
    for (const answer of response.body) expect(answer.result.structuredContent.item.data.extra).toEqual({ nested: [1, 'two'] });
  });
});
