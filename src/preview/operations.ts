import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import { hashSecret } from '../auth/secrets.ts';
import { contentWrite } from '../content/access.ts';
import { entryItem, type Entry } from '../content/entries.ts';
import { findEntry, loadEntry, readDuringSchemaChange } from '../content/lookup.ts';
import type { Context } from '../core/context.ts';
import { AppError, notFound } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { access, defineOperation } from '../core/operation.ts';
import { expandUrlPattern } from '../core/url-patterns.ts';
import { loadCollectionById, type LoadedCollection } from '../schema/store.ts';
import { readSettings } from '../settings/read.ts';
import type { PreviewReadQuery, PreviewUrlBody } from './schemas.ts';
import * as store from './store.ts';

/**
 * Preview links (decisions/0046). A link is the entry's page on the site with a `preview` parameter:
 * `<grant id>.<secret>`. The grant row names the collection, the entry and the expiry; only the
 * secret's hash is stored, as for sign-in links and direct uploads, so the database never holds a
 * usable link and any number of server processes verify it alike.
 */

/** The same answer for every refusal, so a link's holder learns nothing about other entries. */
const refused = () => notFound('Preview (the link is unknown, has expired, or is for another entry)');

/** What the site needs to build the link, or a 409 naming what is missing. */
function previewPattern(collection: LoadedCollection): string {
  if (!collection.supports.includes('preview')) {
    throw new AppError('CONFLICT', `Collection ${collection.slug} does not offer previews: its supports has no "preview"`, { reason: 'preview_not_supported' });
  }
  if (collection.urlPattern === undefined) {
    throw new AppError('CONFLICT', `Collection ${collection.slug} has no urlPattern, so its entries have no page on the site to preview`, { reason: 'no_url_pattern' });
  }
  return collection.urlPattern;
}

/** The site's address with the entry's path appended (a site served under a path keeps it). */
function pageUrl(siteUrl: string, path: string, token: string): string {
  const url = new URL(siteUrl);
  url.pathname = url.pathname.replace(/\/+$/, '') + path;
  url.search = '';
  url.hash = '';
  url.searchParams.set('preview', token);
  return url.toString();
}

export const createPreviewUrl = defineOperation({
  name: 'content.previewUrl',
  // Whoever may edit the entry may show its draft to someone.
  access: contentWrite,
  async run(ctx, input: { collection: string; id: string } & z.output<typeof PreviewUrlBody>): Promise<{ url: string; expiresAt: string }> {
    const { collection, row } = await loadEntry(ctx, ctx.db, input);
    const pattern = previewPattern(collection);
    const { siteUrl } = await readSettings(ctx.db);
    if (siteUrl === '') throw new AppError('CONFLICT', 'The siteUrl setting is empty: set it to the website that renders previews', { reason: 'no_site_url' });
    const id = newId();
    const secret = randomBytes(32).toString('base64url');
    const now = ctx.clock.now();
    const expiresAt = new Date(now.getTime() + input.expiresIn * 1000).toISOString();
    await store.insertPreviewGrant(ctx.db, {
      id,
      secret_hash: hashSecret(secret),
      collection_id: collection.id,
      entry_id: row._id,
      created_by: ctx.actor?.userId ?? null,
      expires_at: expiresAt,
      created_at: now.toISOString(),
    });
    const path = expandUrlPattern(pattern, { slug: row._slug, id: row._id, locale: row._locale });
    return { url: pageUrl(siteUrl, path, `${id}.${secret}`), expiresAt };
  },
});

/** The grant a token names while it is valid; the secret is compared in constant time. */
async function validGrant(ctx: Pick<Context, 'db' | 'clock'>, token: string): Promise<store.PreviewGrantRow | undefined> {
  const [id = '', secret = '', extra] = token.split('.');
  if (extra !== undefined || id === '' || secret === '') return undefined;
  const grant = await store.findPreviewGrant(ctx.db, id);
  if (!grant) return undefined;
  const given = Buffer.from(hashSecret(secret));
  if (!timingSafeEqual(given, Buffer.from(grant.secret_hash))) return undefined;
  return Date.parse(grant.expires_at) > ctx.clock.now().getTime() ? grant : undefined;
}

/**
 * The site's read of a preview: without credentials, the entry the link was made for, as its editors
 * see it now (its latest draft), until the link expires. The entry is named by id or slug as in
 * `GET /content/:collection/:id`, so a site uses the same path it reads published pages with.
 */
export const readPreview = defineOperation({
  name: 'content.preview',
  access: access.public,
  async run(ctx, input: { collection: string; id: string } & z.output<typeof PreviewReadQuery>): Promise<{ item: Entry }> {
    const grant = await validGrant(ctx, input.token);
    if (!grant) throw refused();
    const collection = await loadCollectionById(ctx.db, grant.collection_id);
    if (!collection || collection.slug !== input.collection) throw refused();
    return readDuringSchemaChange(async () => {
      const row = await findEntry(ctx.db, collection, { ref: input.id, locale: input.locale, view: 'editor' });
      if (!row || row._id !== grant.entry_id) throw refused();
      return entryItem(ctx, ctx.db, collection, row, 'editor');
    });
  },
});
