import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { buildOpenApiDocument } from '../src/openapi.js';
import { allRoutes } from '../src/routes/index.js';
import { runRequestSchema } from '../src/schemas/workflow.js';

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument() as any;

  it('is OpenAPI 3.1 with every visible route and its error responses', () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const r of allRoutes.filter((x) => !x.hidden)) {
      const op = doc.paths[r.path]?.[r.method];
      expect(op, `${r.method} ${r.path}`).toBeDefined();
      expect(op.operationId).toBe(r.operationId);
      expect(op.responses['500']).toBeDefined();
      expect(op.responses['400'].content['application/json'].schema.$ref).toBe('#/components/schemas/ValidationErrorResponse');
    }
    expect(doc.paths['/docs/assets/{file}']).toBeUndefined();
    expect(doc.paths['/workflow/run'].post.responses['408']).toBeDefined();
    expect(doc.paths['/workflow/{id}/stop'].patch.deprecated).toBe(true);
    expect(doc.paths['/workflow/{id}/stop'].patch.responses['200'].headers).toHaveProperty('Sunset');
  });

  it('documents the fields seed-system clients read: eventTypeName, stepName, startTime/closeTime, ISO run dates, runId', () => {
    const s = doc.components.schemas;
    expect(s.HistoryEvent.required).toEqual(expect.arrayContaining(['eventId', 'eventType', 'eventTypeName']));
    expect(s.HistoryEvent.properties.stepName.type).toBe('string');
    expect(s.WorkflowMeta.required).toEqual(expect.arrayContaining(['startTime', 'closeTime']));
    expect(s.WorkflowMeta.properties.startTime.format).toBe('date-time');
    const run = s.RunsResponse.properties.runs.items.properties;
    expect(run.startedAt.format).toBe('date-time');
    expect(run.completedAt.anyOf.map((x: any) => x.format ?? x.type)).toEqual(['date-time', 'null']);
    expect(s.StatusResponse.properties.startedAt.type).toBe('integer');
    const latest = doc.paths['/workflow/{id}/history'].get.parameters.map((p: any) => p.name);
    expect(latest).toEqual(expect.arrayContaining(['pageSize', 'pageToken', 'includePayloads', 'longPollTimeoutMs', 'runId']));
  });

  it("documents a body the server takes absent as not required, and the stream routes' Last-Event-ID header", () => {
    for (const [path, method] of [
      ['/workflow/{id}/signal/{signal}', 'post'],
      ['/workflow/{id}/query/{query}', 'post'],
      ['/workflow/{id}/update/{update}', 'post'],
    ] as const) {
      expect(doc.paths[path][method].requestBody.required, path).toBe(false);
    }
    expect(doc.paths['/workflow/start'].post.requestBody.required).toBe(true);
    for (const path of ['/workflow/{id}/history/stream', '/workflow/{id}/runs/{rid}/history/stream']) {
      const header = doc.paths[path].get.parameters.find((p: any) => p.in === 'header');
      expect(header?.name, path).toBe('last-event-id');
      expect(header.required ?? false).toBe(false);
    }
  });

  it('request schemas in the document agree with the zod validators', () => {
    const ajv = new Ajv2020({ strict: false });
    const schema = { ...doc.components.schemas.RunRequest, components: doc.components };
    const validate = ajv.compile(schema);
    for (const body of [
      { workflowName: 'x' },
      { workflowName: 'x', timeout: 100 },
      { workflowName: 'x', timeout: 1000, input: [1] },
      {},
      { workflowName: 3 },
    ]) {
      expect(validate(body), JSON.stringify(body)).toBe(runRequestSchema.safeParse(body).success);
    }
  });
});
