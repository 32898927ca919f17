import { z } from 'zod';
import { errorStatus } from '../core/errors.ts';
import { roleName } from '../core/roles.ts';
import { routeRequirement, type AnyRoute } from './route.ts';

type JsonSchema = Record<string, unknown>;

/**
 * Builds the OpenAPI 3.1 document from the route declarations and their zod schemas, so the document
 * cannot describe an input other than the one that is validated.
 */
export function buildOpenApiDocument(routes: readonly AnyRoute[], basePath: string, version: string): JsonSchema {
  const components: Record<string, JsonSchema> = { ErrorEnvelope: errorEnvelopeSchema() };
  const convert = (schema: z.ZodType, io: 'input' | 'output') => toOpenApiSchema(schema, io, components);
  const paths: Record<string, Record<string, unknown>> = {};

  for (const route of routes) {
    const path = basePath + route.path.replace(/:(\w+)/g, '{$1}');
    const requirement = routeRequirement(route);
    const parameters = [
      ...objectParameters(route.params, 'path', convert),
      ...objectParameters(route.query, 'query', convert),
    ];
    const status = String(route.status ?? 200);
    const operation: Record<string, unknown> = {
      operationId: route.operation.name,
      summary: route.summary,
      tags: [route.tag],
      parameters,
      responses: {
        [status]: {
          description: 'Success',
          content: {
            'application/json': { schema: successEnvelope(convert(route.response, 'output')) },
            ...Object.fromEntries((route.renderTypes ?? []).map((type) => [type, { schema: { type: 'string' } }])),
          },
        },
        ...errorResponses(route, requirement.authenticated),
      },
      security: requirement.authenticated ? [{ bearerAuth: [] }] : [],
    };
    if (requirement.scope) operation['x-required-scope'] = requirement.scope;
    if (requirement.minRole) operation['x-minimum-role'] = `${requirement.minRole} (${roleName(requirement.minRole)})`;
    if (route.body) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: convert(route.body, 'input') } } };
    }
    (paths[path] ??= {})[route.method] = operation;
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Folio API',
      version,
      description: 'Content management REST API. Responses use the envelope `{success, data}` or `{success:false, error:{code, message, details}}`.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'A personal access token (ec_pat_…) or an OAuth access token' },
      },
    },
  };
}

function toOpenApiSchema(schema: z.ZodType, io: 'input' | 'output', components: Record<string, JsonSchema>): JsonSchema {
  const { $schema: _ignored, $defs, ...json } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  for (const [id, definition] of Object.entries(($defs as Record<string, JsonSchema> | undefined) ?? {})) {
    components[id] = rewriteRefs(definition) as JsonSchema;
  }
  return rewriteRefs(json) as JsonSchema;
}

/** zod names shared schemas in `$defs`; in an OpenAPI document they live under components. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) =>
      key === '$ref' && typeof item === 'string' ? [key, item.replace('#/$defs/', '#/components/schemas/')] : [key, rewriteRefs(item)],
    ),
  );
}

function objectParameters(
  schema: z.ZodType | undefined,
  location: 'path' | 'query',
  convert: (schema: z.ZodType, io: 'input' | 'output') => JsonSchema,
) {
  if (!schema) return [];
  const json = convert(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return { name, in: location, required: location === 'path' || required.has(name), description, schema: propertySchema };
  });
}

function successEnvelope(data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: { success: { const: true }, data },
    required: ['success', 'data'],
  };
}

function errorEnvelopeSchema(): JsonSchema {
  return {
    type: 'object',
    properties: {
      success: { const: false },
      error: {
        type: 'object',
        properties: {
          code: { type: 'string', enum: Object.keys(errorStatus) },
          message: { type: 'string' },
          details: { type: 'object', description: 'Always an object; `issues: [{path, message}]` on validation errors' },
        },
        required: ['code', 'message', 'details'],
      },
    },
    required: ['success', 'error'],
  };
}

function errorResponses(route: AnyRoute, authenticated: boolean): Record<string, unknown> {
  const error = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
  });
  const responses: Record<string, unknown> = { '400': error('Invalid input (VALIDATION_ERROR with details.issues)') };
  if (authenticated) {
    responses['401'] = error('Missing or invalid credential (UNAUTHORIZED)');
    responses['403'] = error('Missing scope or role (FORBIDDEN with details.requiredScope or details.requiredRole)');
  }
  if (route.params) responses['404'] = error('Not found (NOT_FOUND)');
  if (route.method !== 'get') {
    responses['413'] = error('Body over the limit (PAYLOAD_TOO_LARGE)');
    responses['415'] = error('Body is not JSON (UNSUPPORTED_MEDIA_TYPE)');
  }
  responses['500'] = error('Unexpected failure (INTERNAL_ERROR, with details.requestId)');
  return responses;
}
