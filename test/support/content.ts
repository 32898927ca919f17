import type { ApiResponse, TestApp } from './harness.ts';

/** Collections, fields and entries made through the REST API, for content tests. */

export const api = '/_cms/api';

/** A field definition as POST /schema/collections/:slug/fields takes it; `label` defaults to the slug. */
export interface FieldInput {
  slug: string;
  type: string;
  label?: string;
  required?: boolean;
  unique?: boolean;
  defaultValue?: unknown;
  validation?: Record<string, unknown>;
  options?: Record<string, unknown>;
  translatable?: boolean;
  searchable?: boolean;
}

/** Asserts a 201 success envelope and returns its data. */
export function expectCreated(response: ApiResponse) {
  if (response.status !== 201 || response.body?.success !== true) {
    throw new Error(`expected 201 success, got ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.data;
}

/** Creates a collection and its fields as the admin; `collection` is the rest of the create body. */
export async function createCollection(t: TestApp, slug: string, fields: FieldInput[], collection: Record<string, unknown> = {}): Promise<void> {
  expectCreated(await t.request('POST', `${api}/schema/collections`, { token: t.adminToken, body: { slug, label: slug, ...collection } }));
  for (const { label, ...field } of fields) {
    expectCreated(await t.request('POST', `${api}/schema/collections/${slug}/fields`, { token: t.adminToken, body: { label: label ?? field.slug, ...field } }));
  }
}

/** Creates an entry (as the admin unless a token is given) and returns the item. */
export async function createEntry(t: TestApp, collection: string, body: Record<string, unknown>, token = t.adminToken) {
  return expectCreated(await t.request('POST', `${api}/content/${collection}`, { token, body })).item;
}
