import { randomBytes } from 'node:crypto';
import { html } from 'hono/html';
import { parseAccept } from 'hono/utils/accept';
import { z } from 'zod';
import { layout } from '../auth/pages.ts';
import { signInPath } from '../auth/return-path.ts';
import { AppError, notFound } from '../core/errors.ts';
import { access, defineOperation } from '../core/operation.ts';
import type { ByteSource } from '../core/results.ts';
import { defineRoute, type FailureResponse, type Route } from '../http/route.ts';
import { readBuiltPanel, type BuiltPanel, type Encoding, type PanelAsset } from './files.ts';

/**
 * The administration panel at /_cms/admin/ (decisions/0042): the app Vite built into dist/admin/.
 * Its hashed files are public and cached for good; every other path is the app's page, for a
 * signed-in browser only (a visit without a session goes to sign in and comes back), never cached,
 * under a CSP that allows nothing but Folio's own origin.
 */
export function panelContentSecurityPolicy(styleNonce: string): string {
  return `default-src 'self'; script-src 'self'; style-src 'self' 'nonce-${styleNonce}'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
}

/**
 * Where index.html (admin/index.html) says the page's style nonce goes. React Aria adds two small
 * <style> elements of its own (touch-action for pressable elements, overscroll while a dialog is open)
 * and gives them the nonce of `<meta property="csp-nonce">`: a fresh one per page, allowed by that
 * page's CSP, lets exactly those in and no injected style.
 */
const noncePlaceholder = '__FOLIO_CSP_NONCE__';

/** Hashed names change with their content, so a browser may keep each file as long as it likes. */
const immutable = 'public, max-age=31536000, immutable';

const AssetParams = z.object({ file: z.string().min(1).max(255) });
const AssetHeaders = z.object({ 'accept-encoding': z.string().max(2048).optional() });

/** The smallest form the client accepts: brotli, then gzip, else the file as it is (RFC 9110 §12.5.3). */
export function chooseEncoding(asset: PanelAsset, acceptEncoding: string | undefined): ByteSource {
  if (acceptEncoding === undefined) return asset.identity;
  const weights = new Map(parseAccept(acceptEncoding).map((accept) => [accept.type.toLowerCase(), accept.q]));
  const weight = (encoding: Encoding) => weights.get(encoding) ?? weights.get('*') ?? 0;
  let best: ByteSource = asset.identity;
  let bestWeight = 0;
  for (const encoding of ['br', 'gzip'] as const) {
    const encoded = asset.encoded[encoding];
    if (encoded && weight(encoding) > bestWeight) {
      best = encoded;
      bestWeight = weight(encoding);
    }
  }
  return best;
}

const notBuilt = () => new AppError('SERVICE_UNAVAILABLE', 'The administration panel is not built', { reason: 'panel_not_built' });

/** How the page's failures answer a browser: sign in and come back, or a page saying what is wrong. */
async function panelFailure(error: AppError, request: { url: string }): Promise<FailureResponse> {
  if (error.code === 'UNAUTHORIZED') {
    const url = new URL(request.url);
    return { kind: 'page', result: { redirect: signInPath(url.pathname + url.search), status: 303 } };
  }
  const body =
    error.details.reason === 'panel_not_built'
      ? html`<p>This server runs from a checkout whose panel has not been built, so there is nothing to show here yet.</p>
<p>Run <code>npm run build</code> in Folio's folder, then reload this page. While developing, <code>npm run dev</code> serves the panel with hot reload.</p>`
      : html`<p role="alert">${error.message}</p>`;
  const title = error.details.reason === 'panel_not_built' ? 'The panel is not built' : 'The panel cannot be shown';
  return { kind: 'page', result: { html: await layout('panel-problem', title, body), status: error.status } };
}

/** The panel's routes, relative to /_cms; `dir` is where its build lies (the tests give another). */
export function panelRoutes(dir: string): Route[] {
  let reading: Promise<BuiltPanel | undefined> | undefined;
  // Read once; while there is no build, looked for again at each request, so a build made meanwhile is served.
  const built = async (): Promise<BuiltPanel | undefined> => {
    const panel = await (reading ??= readBuiltPanel(dir));
    if (!panel) reading = undefined;
    return panel;
  };

  const assetOperation = defineOperation({
    name: 'panel.asset',
    access: access.public,
    run: async (_ctx, input: { file: string; acceptEncoding: string | undefined }): Promise<ByteSource> => {
      const asset = (await built())?.assets.get(input.file);
      if (!asset) throw notFound(`Panel file ${input.file}`);
      return chooseEncoding(asset, input.acceptEncoding);
    },
  });
  const pageOperation = defineOperation({
    name: 'panel.page',
    access: access.ownAccount,
    run: async (): Promise<{ html: string; nonce: string }> => {
      const panel = await built();
      if (!panel) throw notBuilt();
      const nonce = randomBytes(18).toString('base64');
      return { html: panel.indexHtml.replaceAll(noncePlaceholder, nonce), nonce };
    },
  });
  const page = (path: string) =>
    defineRoute({
      method: 'get',
      path,
      tag: 'Panel',
      summary: 'The administration panel',
      operation: pageOperation,
      result: { kind: 'html', render: (page) => page.html, contentSecurityPolicy: (page) => panelContentSecurityPolicy(page.nonce), cacheControl: 'no-cache' },
      failure: panelFailure,
    });

  return [
    defineRoute({
      method: 'get',
      path: '/admin/assets/:file',
      tag: 'Panel',
      summary: "The panel's scripts and styles",
      operation: assetOperation,
      params: AssetParams,
      headers: AssetHeaders,
      input: ({ params, headers }) => ({ file: params.file, acceptEncoding: headers['accept-encoding'] }),
      result: { kind: 'bytes', source: (file) => file, cacheControl: immutable, headers: { vary: 'Accept-Encoding' } },
    }),
    page('/admin'),
    page('/admin/*'),
  ];
}
