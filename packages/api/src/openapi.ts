import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import { ERROR_TABLE, type ErrorType } from './errors.js';
import type { RouteDef } from './route.js';
import { allRoutes } from './routes/index.js';
import { errorResponseSchema, validationErrorResponseSchema } from './schemas/common.js';

/** The package version, shared by every Skein package (SPEC "Versioning"). */
export const API_VERSION = '0.1.0';

const requestIdHeader = { description: 'Request id (echoes a valid incoming X-Request-ID)', schema: { type: 'string' as const } };
const deprecationHeaderDocs = {
  Deprecation: { description: 'Always `true`: this route is deprecated', schema: { type: 'string' as const } },
  Sunset: { description: 'Removal date: Thu, 16 Jul 2026 00:00:00 GMT', schema: { type: 'string' as const } },
  Link: {
    description: 'The run-pinned successor route of the targeted run, `</workflow/<id>/runs/<rid>/<op>>; rel="successor-version"` (`{rid}` when the run could not be read)',
    schema: { type: 'string' as const },
  },
};

function errorResponses(route: RouteDef): ZodOpenApiResponsesObject {
  const types: ErrorType[] = ['ValidationError', ...(route.errors ?? []), 'InternalError'];
  const byStatus = new Map<number, ErrorType[]>();
  for (const t of types) {
    const status = ERROR_TABLE[t].status;
    byStatus.set(status, [...new Set([...(byStatus.get(status) ?? []), t])]);
  }
  const headers = { 'X-Request-ID': requestIdHeader, ...(route.deprecated ? deprecationHeaderDocs : {}) };
  const out: ZodOpenApiResponsesObject = {};
  for (const [status, names] of [...byStatus].sort((a, b) => a[0] - b[0])) {
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
  };
  const requestParams: NonNullable<ZodOpenApiOperationObject['requestParams']> = {};
  if (route.params) requestParams.path = route.params as never;
  if (route.query) requestParams.query = route.query as never;
  if (route.params || route.query) op.requestParams = requestParams;
  if (route.body) op.requestBody = { required: true, content: { 'application/json': { schema: route.body } } };
  return op;
}

/**
 * Builds the OpenAPI 3.1 document of the API from the same route definitions and zod schemas that validate
 * requests, so the document cannot drift from the code. `serverUrl` fills `servers` when given.
 */
export function buildOpenApiDocument(routes: RouteDef[] = allRoutes, serverUrl?: string): ReturnType<typeof createDocument> {
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
        '`{ error, message, workflowId }`, or `ValidationErrorResponse` `{ error: "ValidationError", message, issues }` for 400s.',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    security: [],
    tags: [
      { name: 'Executions', description: 'Run and start workflows, read results, status and input' },
      { name: 'History', description: 'Paged and streamed engine history' },
      { name: 'Control', description: 'Signal, query, update, stop, terminate and reset' },
      { name: 'Catalog', description: 'Workflows served by a catalog' },
      { name: 'Service', description: 'Readiness, liveness and this document' },
    ],
    paths,
  });
}
