import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import { ERROR_TABLE, type ErrorType } from './errors.js';
import type { RouteDef } from './route.js';
import { allRoutes } from './routes/index.js';
import { errorResponseSchema, validationErrorResponseSchema } from './schemas/common.js';
import { API_VERSION } from './version.js';

export { API_VERSION } from './version.js';

const requestIdHeader = { description: 'Request id (echoes a valid incoming X-Request-ID)', schema: { type: 'string' as const } };
const retryAfterHeader = { description: 'Seconds to wait before retrying (no worker polls the catalog)', schema: { type: 'string' as const } };
const batchRetryAfterHeader = { description: 'Seconds to wait before starting another batch operation', schema: { type: 'string' as const } };
const deprecationHeaderDocs = {
  Deprecation: { description: 'Always `true`: this route is deprecated', schema: { type: 'string' as const } },
  Sunset: { description: 'Removal date: Thu, 16 Jul 2026 00:00:00 GMT', schema: { type: 'string' as const } },
  Link: {
    description:
      'The run-pinned successor route of the targeted run, `</workflow/<id>/runs/<rid>/<op>>; rel="successor-version"` (`{rid}` when the run could not be read)',
    schema: { type: 'string' as const },
  },
};

/** Paths that answer without the bearer token (health probes). */
const TOKEN_EXEMPT = new Set(['/health', '/ready']);

/**
 * The error types a route can answer: its own, plus those every route shares (docs/reference/api-contract.md, "Error model"):
 * 400, 403 (Origin/Host allow-list), 401 (bearer token, when configured), 415 and 413 for routes with a body, 500.
 */
export function routeErrorTypes(route: RouteDef): ErrorType[] {
  return [
    'ValidationError',
    ...(route.errors ?? []),
    ...(TOKEN_EXEMPT.has(route.path) ? [] : (['UnauthorizedError'] as const)),
    'ForbiddenOriginError',
    ...(route.body ? (['UnsupportedMediaTypeError', 'PayloadTooLargeError'] as const) : []),
    'InternalError',
  ];
}

function errorResponses(route: RouteDef): ZodOpenApiResponsesObject {
  const types = routeErrorTypes(route);
  const byStatus = new Map<number, ErrorType[]>();
  for (const t of types) {
    const status = ERROR_TABLE[t].status;
    byStatus.set(status, [...new Set([...(byStatus.get(status) ?? []), t])]);
  }
  const out: ZodOpenApiResponsesObject = {};
  for (const [status, names] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const headers = {
      'X-Request-ID': requestIdHeader,
      ...(route.deprecated ? deprecationHeaderDocs : {}),
      ...(names.includes('CatalogNotAvailableError') ? { 'Retry-After': retryAfterHeader } : {}),
      ...(names.includes('TooManyBatchOperationsError') ? { 'Retry-After': batchRetryAfterHeader } : {}),
      ...(status === 401 ? { 'WWW-Authenticate': { description: '`Bearer realm="skein"`', schema: { type: 'string' as const } } } : {}),
    };
    out[String(status) as '400'] = {
      description: names.join(', '),
      headers,
      content: { 'application/json': { schema: status === 400 ? validationErrorResponseSchema : errorResponseSchema } },
    };
  }
  return out;
}

function operation(route: RouteDef): ZodOpenApiOperationObject {
  const headers = { 'X-Request-ID': requestIdHeader, ...(route.deprecated ? deprecationHeaderDocs : {}) };
  const responses: ZodOpenApiResponsesObject = {};
  for (const [status, r] of Object.entries(route.responses)) {
    responses[status as '200'] = {
      description: r.description,
      headers,
      ...(r.schema || r.contentType
        ? { content: { [r.contentType ?? 'application/json']: r.schema ? { schema: r.schema } : { schema: { type: 'string' } } } }
        : {}),
    } as never;
  }
  Object.assign(responses, errorResponses(route));
  const op: ZodOpenApiOperationObject = {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    responses,
    ...(route.description ? { description: route.description } : {}),
    ...(route.deprecated ? { deprecated: true } : {}),
    ...(TOKEN_EXEMPT.has(route.path) ? { security: [] } : {}),
  };
  const requestParams: NonNullable<ZodOpenApiOperationObject['requestParams']> = {};
  if (route.params) requestParams.path = route.params as never;
  if (route.query) requestParams.query = route.query as never;
  if (route.headers) requestParams.header = route.headers as never;
  if (route.params || route.query || route.headers) op.requestParams = requestParams;
  // A body that may be left out is documented as not required: one whose schema takes `undefined`, or takes `{}`
  // (the body parser reads an absent body as `{}`: `POST /workflow/{id}/signal/{signal}` with no body is a signal
  // without a payload).
  if (route.body) {
    const optional = route.body.safeParse(undefined).success || route.body.safeParse({}).success;
    op.requestBody = { required: !optional, content: { 'application/json': { schema: route.body } } };
  }
  return op;
}

/**
 * Builds the OpenAPI 3.1 document of the API from the same route definitions and zod schemas that validate
 * requests, so the document cannot drift from the code. `serverUrl` fills `servers` when given. The `bearerAuth`
 * security scheme is always described; it is required (top-level `security`) only when `tokenRequired`
 * (`SKEIN_API_TOKEN` set); by default the requirement list is empty: the API declares no security scheme.
 */
export function buildOpenApiDocument(routes: RouteDef[] = allRoutes, serverUrl?: string, tokenRequired = false): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    if (route.hidden) continue;
    paths[route.path] = { ...(paths[route.path] ?? {}), [route.method]: operation(route) };
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Skein API',
      version: API_VERSION,
      description:
        'Run, inspect, signal and control Skein workflows on Temporal. Errors follow one model: `ErrorResponse` ' +
        '`{ error, message, workflowId }`, or `ValidationErrorResponse` `{ error: "ValidationError", message, issues }` for 400s. ' +
        'Every route also answers 405 `MethodNotAllowedError` (with `Allow`) to another method on its path; request ' +
        'bodies must be `application/json`, nest at most 512 levels and hold well-formed Unicode; only loopback ' +
        '`Origin`s and `Host`s are served unless `SKEIN_CORS_ORIGINS` / `SKEIN_ALLOWED_HOSTS` extend the lists.',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    security: tokenRequired ? [{ bearerAuth: [] }] : [],
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Only when the server sets `SKEIN_API_TOKEN`: `Authorization: Bearer <token>` on every route but /health and /ready.',
        },
      },
    },
    tags: [
      { name: 'Executions', description: 'Run and start workflows, read results, status and input' },
      { name: 'History', description: 'Paged and streamed engine history' },
      { name: 'Control', description: 'Signal, query, update, stop, terminate and reset' },
      { name: 'Batch', description: 'Terminate, cancel, signal or reset many runs at once (Temporal batch operations)' },
      { name: 'Catalog', description: 'Workflows served by a catalog' },
      { name: 'Schedules', description: 'Recurring runs on Temporal Schedules: create, list, describe, change, pause, trigger, backfill, delete' },
      { name: 'Service', description: 'Readiness, liveness and this document' },
    ],
    paths,
  });
}
