import { Hono, type Context as HonoContext } from 'hono';
import { cors } from 'hono/cors';
import type { Logger } from 'pino';
import packageJson from '../package.json' with { type: 'json' };
import { bearerTokens } from './auth/authenticate.ts';
import { createMailer, type Mailer } from './auth/mail.ts';
import { sessionCookies } from './auth/sessions.ts';
import { authRoutes } from './auth/routes.ts';
import { signInRoutes } from './auth/sign-in-routes.ts';
import { pageRoutes, pagesBasePath } from './auth/pages.ts';
import { siteArchiveRoutes } from './archive/routes.ts';
import { landingPath } from './auth/return-path.ts';
import type { ImportPayload } from './import/job/job.ts';
import type { ChildProcessJob } from './jobs/child-process.ts';
import type { Config } from './config.ts';
import { systemClock, type Clock } from './core/clock.ts';
import type { Context } from './core/context.ts';
import { AppError } from './core/errors.ts';
import { JsonWriter } from './core/raw-json.ts';
import type { Db } from './db/connection.ts';
import type { MediaStorage } from './media/storage/types.ts';
import { BodyMemoryBudget } from './http/body.ts';
import { clientAddress } from './http/client-address.ts';
import { resolveCredentials, type CredentialRequest, type CredentialResolver } from './http/credentials.ts';
import { failure } from './http/envelope.ts';
import { apiHeaders, securityHeaders } from './http/headers.ts';
import { mountRoute } from './http/mount.ts';
import { apiBasePath } from './http/paths.ts';
import { createOriginPolicy, requestOrigin } from './http/origin.ts';
import { answerThrown } from './http/results.ts';
import { buildOpenApiDocument } from './http/openapi.ts';
import { requestContext } from './http/request-context.ts';
import { requestHeader } from './http/request-headers.ts';
import { allowedMethods } from './http/allowed-methods.ts';
import type { Route } from './http/route.ts';
import type { AppEnv } from './http/types.ts';
import { describeMcpEndpoint, mountMcp } from './mcp/routes.ts';
import { mcpTools } from './mcp/tools.ts';
import { EntryListeners } from './content/listeners.ts';
import { bylineRoutes } from './bylines/routes.ts';
import { contentRoutes } from './content/routes.ts';
import { mediaRoutes } from './media/routes.ts';
import { menuRoutes } from './menus/routes.ts';
import { commentRoutes } from './comments/routes.ts';
import { previewRoutes } from './preview/routes.ts';
import { revisionRoutes } from './revisions/routes.ts';
import { taxonomyRoutes } from './taxonomies/routes.ts';
import { schemaRoutes } from './schema/routes.ts';
import { sectionRoutes } from './sections/routes.ts';
import { redirectRoutes } from './redirects/routes.ts';
import { searchRoutes } from './search/routes.ts';
import type { PluginHost } from './plugins/host.ts';
import { pluginRoutes } from './plugins/routes.ts';
import { settingsRoutes } from './settings/routes.ts';
import { docsRoutes } from './system/docs-routes.ts';
import { systemRoutes } from './system/routes.ts';
import { userRoutes } from './users/routes.ts';
import { widgetRoutes } from './widgets/routes.ts';
import { oauthAccessTokens } from './oauth/authenticate.ts';
import { discoveryRoutes, oauthApiRoutes, oauthPageRoutes, oauthRootFallbackRoutes, openCorsPaths } from './oauth/routes.ts';
import { importRoutes } from './import/routes.ts';
import { builtPanelDir } from './panel/files.ts';
import { panelRoutes } from './panel/routes.ts';

export { apiBasePath };

/** Every REST endpoint of the areas; each area adds its list here. */
export const apiRoutes: readonly Route[] = [...systemRoutes, ...authRoutes, ...signInRoutes, ...userRoutes, ...settingsRoutes, ...schemaRoutes, ...contentRoutes, ...previewRoutes, ...revisionRoutes, ...mediaRoutes, ...taxonomyRoutes, ...menuRoutes, ...sectionRoutes, ...redirectRoutes, ...widgetRoutes, ...searchRoutes, ...bylineRoutes, ...importRoutes, ...oauthApiRoutes, ...pluginRoutes, ...commentRoutes, ...siteArchiveRoutes];

export interface AppDependencies {
  config: Config;
  db: Db;
  log: Logger;
  /** Where media bytes live (media/storage/open.ts opens the configured one). */
  storage: MediaStorage;
  clock?: Clock;
  /** The REST routes to serve; default `apiRoutes` (tests add routes of their own). */
  routes?: readonly Route[];
  /** How callers prove who they are, tried in order; default OAuth access tokens, personal access tokens, then session cookies. */
  credentials?: readonly CredentialResolver[];
  /** How sign-in mails go out; default SMTP from the config, or the log without it. */
  mailer?: Mailer;
  /** What hears of entry changes: the search index and the plugins' hooks, then any a test adds (content/listeners.ts). */
  entryListeners?: EntryListeners;
  /** The plugins loaded at start (plugins/loader.ts): their routes are served, their hooks called; default none. */
  plugins?: PluginHost;
  /** Where the built administration panel lies; default dist/admin/ (panel/files.ts). */
  panelDir?: string;
  /** How an import a request waits for is run; default in this process (import/job/job.ts). */
  importJobProcess?: ChildProcessJob<ImportPayload>;
}

/**
 * The API as served: `routes` and the reference's own (`/openapi.json`, `/docs`), with the OpenAPI
 * document of them all. The panel's typed client is generated from this same document
 * (bin/panel-api-types.ts), so a change here that breaks the panel fails its type-check.
 */
export function servedApi(routes: readonly Route[]): { served: Route[]; document: Record<string, unknown> } {
  let document: Record<string, unknown> = {};
  const served = [...routes, ...docsRoutes(apiBasePath, () => document)];
  document = buildOpenApiDocument(served, apiBasePath, packageJson.version);
  describeMcpEndpoint(document, apiBasePath);
  return { served, document };
}

/** `scheme://host[:port]` of an absolute URL, without parsing all of it (this runs on every request). */
function originOf(url: string): string {
  const end = url.indexOf('/', url.indexOf('//') + 2);
  return end === -1 ? url : url.slice(0, end);
}

/** Builds the whole HTTP application from its dependencies; `serve`, the tests and the benchmarks all use this. */
export function createApp({ config, db, log, storage, clock = systemClock, routes = apiRoutes, credentials = [oauthAccessTokens, bearerTokens, sessionCookies(config)], entryListeners = EntryListeners.of(), mailer = createMailer(config, log), plugins, panelDir = builtPanelDir, importJobProcess }: AppDependencies): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  const https = config.publicUrl?.startsWith('https:') ?? false;
  const origins = createOriginPolicy(config);
  const originAllowed = (request: CredentialRequest) => {
    const { origin, host } = requestOrigin(request.header, request.url);
    return origin === undefined || origins.allowsOrigin(origin, host);
  };
  // What the API, the sign-in pages and the discovery documents run operations with. Built at its first
  // use, so a request that needs none (a file of the panel, a 404) builds nothing.
  const operationContext = (c: HonoContext<AppEnv>): AppEnv['Variables']['resolveContext'] => {
    let base: Omit<Context, 'principal'> | undefined;
    let authenticated: Promise<Context> | undefined;
    const baseOf = () =>
      (base ??= { db: db.forRequest(), clock, config, log: c.get('log'), entryListeners, storage, baseUrl: config.publicUrl ?? originOf(c.req.url), clientAddress: clientAddress(c, config.trustProxy), mailer, plugins, importJobProcess });
    return (authenticate) => {
      const shared = baseOf();
      if (!authenticate) return Promise.resolve({ ...shared, principal: null });
      const request: CredentialRequest = { method: c.req.method, url: c.req.url, header: (name) => requestHeader(c, name), db: shared.db, clock };
      return (authenticated ??= resolveCredentials(credentials, request, originAllowed).then((principal) => ({ ...shared, principal })));
    };
  };
  // Every handler below runs wrapped in the request's context (no middleware for `*`: request-context.ts).
  const inRequest = requestContext({ log, headers: securityHeaders(https), apiHeaders, apiPrefix: `${apiBasePath}/`, json: new JsonWriter(), operationContext });
  // OAuth's discovery documents and endpoints take no cookie: any page may call them (browser-based
  // MCP clients do). Registered first, so their preflights are answered here.
  for (const path of openCorsPaths) app.use(path, inRequest(cors({ origin: '*', maxAge: 600, exposeHeaders: ['Retry-After', 'WWW-Authenticate'] })));
  if (config.corsOrigins.length > 0) {
    // Request headers are allowed as the preflight asks (Authorization, MCP-Protocol-Version, Mcp-Session-Id…);
    // the exposed ones are what browser clients read, the MCP transport's among them.
    const exposeHeaders = ['Retry-After', 'X-Request-Id', 'WWW-Authenticate', 'Mcp-Protocol-Version', 'Mcp-Session-Id'];
    app.use('*', inRequest(cors({ origin: config.corsOrigins, credentials: true, maxAge: 600, exposeHeaders })));
  }

  const budget = new BodyMemoryBudget(config.bodyMemoryLimit);
  const { served } = servedApi([...routes, ...(plugins?.routes() ?? [])]);
  for (const route of served) mountRoute(app, route, { basePath: apiBasePath, bodyLimit: config.bodyLimit, budget, config, inRequest });
  for (const route of [...pageRoutes, ...oauthPageRoutes, ...panelRoutes(panelDir)]) mountRoute(app, route, { basePath: pagesBasePath, bodyLimit: config.bodyLimit, budget, config, inRequest });
  for (const route of [...discoveryRoutes, ...oauthRootFallbackRoutes]) mountRoute(app, route, { basePath: '', bodyLimit: config.bodyLimit, budget, config, inRequest });
  mountMcp(app, apiBasePath, mcpTools, { publicUrl: config.publicUrl, bodyLimit: config.bodyLimit, budget, origins, inRequest });

  // A path of the API served for other methods: 405 with them. Asked here, where no route answered,
  // rather than by a middleware every request would pass through.
  const methodsAt = allowedMethods(app);
  app.notFound(
    inRequest((c) => {
      if (c.req.path === apiBasePath || c.req.path.startsWith(`${apiBasePath}/`)) {
        const allowed = methodsAt(c.req.path);
        if (allowed.length > 0 && !allowed.includes(c.req.method)) {
          const allow = allowed.join(', ');
          return failure(c, new AppError('METHOD_NOT_ALLOWED', `${c.req.method} is not allowed here; allowed: ${allow}`, { allowed }), { allow });
        }
        return failure(c, new AppError('NOT_FOUND', `No endpoint ${c.req.method} ${c.req.path}`));
      }
      // A person opening the server's address lands in the panel (or signs in first); 302, so a site can take `/` later.
      if (c.req.path === '/' && (c.req.method === 'GET' || c.req.method === 'HEAD')) return c.redirect(landingPath, 302);
      return c.text('Not Found', 404);
    }),
  );
  app.onError((error, c) => answerThrown(c, error));
  return app;
}
