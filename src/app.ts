import { Hono, type Context as HonoContext } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { methodNotAllowed } from 'hono/method-not-allowed';
import type { Logger } from 'pino';
import packageJson from '../package.json' with { type: 'json' };
import { authenticateBearer } from './auth/authenticate.ts';
import { authRoutes } from './auth/routes.ts';
import type { Config } from './config.ts';
import { systemClock, type Clock } from './core/clock.ts';
import type { Context } from './core/context.ts';
import { AppError } from './core/errors.ts';
import type { Db } from './db/connection.ts';
import { mountDocs } from './http/docs.ts';
import { failure } from './http/envelope.ts';
import { apiHeaders, securityHeaders } from './http/headers.ts';
import { requestContext, requestHeader } from './http/request-context.ts';
import { buildOpenApiDocument } from './http/openapi.ts';
import { mountRoute, type AnyRoute } from './http/route.ts';
import type { AppEnv } from './http/types.ts';
import { describeMcpEndpoint, mountMcp } from './mcp/routes.ts';
import { mcpTools } from './mcp/tools.ts';
import { contentRoutes } from './content/routes.ts';
import { revisionRoutes } from './revisions/routes.ts';
import { schemaRoutes } from './schema/routes.ts';
import { settingsRoutes } from './settings/routes.ts';
import { systemRoutes } from './system/routes.ts';
import { userRoutes } from './users/routes.ts';

export const apiBasePath = '/_cms/api';

/** Every REST endpoint; each area adds its list here. */
export const apiRoutes: readonly AnyRoute[] = [...systemRoutes, ...authRoutes, ...userRoutes, ...settingsRoutes, ...schemaRoutes, ...contentRoutes, ...revisionRoutes];

export interface AppDependencies {
  config: Config;
  db: Db;
  log: Logger;
  clock?: Clock;
}

/** Builds the whole HTTP application from its dependencies; `serve`, the tests and the benchmarks all use this. */
export function createApp({ config, db, log, clock = systemClock }: AppDependencies): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const api = `${apiBasePath}/*`;

  const https = config.publicUrl?.startsWith('https:') ?? false;
  app.use('*', requestContext({ log, headers: securityHeaders(https), apiHeaders, apiPrefix: `${apiBasePath}/` }));
  if (config.corsOrigins.length > 0) {
    app.use('*', cors({ origin: config.corsOrigins, credentials: true, maxAge: 600, exposeHeaders: ['Retry-After', 'X-Request-Id'] }));
  }
  const tooLarge = (c: HonoContext<AppEnv>) =>
    failure(c, new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than ${config.bodyLimit} bytes`, { limit: config.bodyLimit }));
  const limitBody = bodyLimit({ maxSize: config.bodyLimit, onError: tooLarge });
  app.use(api, async (c, next) => {
    // GET and HEAD carry no body; skipping them keeps the request object lazy (cheaper).
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    // With a Content-Length (and no chunking), Node's parser delivers exactly that many bytes, so the
    // header decides; reading the body through the stream guard costs a whole web Request per POST.
    const length = requestHeader(c, 'content-length');
    if (length !== undefined && requestHeader(c, 'transfer-encoding') === undefined && /^\d+$/.test(length)) {
      return Number(length) > config.bodyLimit ? tooLarge(c) : next();
    }
    return limitBody(c, next);
  });
  app.use(api, methodNotAllowed({
    app,
    onMethodNotAllowed: (c, methods) =>
      failure(c, new AppError('METHOD_NOT_ALLOWED', `${c.req.method} is not allowed here; allowed: ${methods.join(', ')}`, { allowed: methods }), {
        allow: methods.join(', '),
      }),
  }));
  app.use(api, async (c, next) => {
    const requestDb = db.forRequest();
    const base = { db: requestDb, clock, config, log: c.get('log') };
    let authenticated: Promise<Context> | undefined;
    c.set('resolveContext', (authenticate) =>
      authenticate
        ? (authenticated ??= authenticateBearer(requestDb, clock, requestHeader(c, 'authorization')).then((principal) => ({ ...base, principal })))
        : Promise.resolve({ ...base, principal: null }),
    );
    await next();
  });

  const openApiDocument = buildOpenApiDocument(apiRoutes, apiBasePath, packageJson.version);
  describeMcpEndpoint(openApiDocument, apiBasePath);
  app.get(`${apiBasePath}/openapi.json`, (c) => c.json(openApiDocument));
  mountDocs(app, apiBasePath);
  for (const route of apiRoutes) mountRoute(app, apiBasePath, route);
  mountMcp(app, apiBasePath, mcpTools, config.publicUrl);

  app.notFound((c) => {
    if (c.req.path === apiBasePath || c.req.path.startsWith(`${apiBasePath}/`)) {
      return failure(c, new AppError('NOT_FOUND', `No endpoint ${c.req.method} ${c.req.path}`));
    }
    return c.text('Not Found', 404);
  });
  app.onError((error, c) => {
    if (error instanceof AppError) return failure(c, error);
    const requestId = c.get('requestId');
    (c.get('log') ?? log).error({ err: error }, 'unhandled error');
    return failure(c, new AppError('INTERNAL_ERROR', 'Internal server error', { requestId }));
  });
  return app;
}
