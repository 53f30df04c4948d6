import { describe, expect, it } from 'vitest';
import { idempotencyKeyProblem, idempotentWorkflowId, startPolicy } from '../src/temporal/start-options.js';
import { startDelaySchema, startHeadersSchema, startRequestSchema } from '../src/schemas/workflow.js';
import { buildOpenApiDocument } from '../src/openapi.js';

describe('start policies', () => {
  it("map onConflict and onClosed to Temporal's conflict and reuse policies, fail and allow by default", () => {
    expect(startPolicy({})).toMatchObject({ workflowIdConflictPolicy: 'FAIL', workflowIdReusePolicy: 'ALLOW_DUPLICATE', idempotent: false });
    expect(startPolicy({ onConflict: 'use-existing', onClosed: 'allow-failed-only' })).toMatchObject({
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
    });
    expect(startPolicy({ onConflict: 'terminate-existing', onClosed: 'reject' })).toMatchObject({
      workflowIdConflictPolicy: 'TERMINATE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  });

  it('an Idempotency-Key means use-existing and reject, and refuses contradicting options', () => {
    expect(startPolicy({ idempotencyKey: 'k' })).toMatchObject({ onConflict: 'use-existing', onClosed: 'reject', idempotent: true });
    expect(startPolicy({ idempotencyKey: 'k', onConflict: 'use-existing', onClosed: 'reject' }).idempotent).toBe(true);
    expect(() => startPolicy({ idempotencyKey: 'k', onConflict: 'fail' })).toThrow(/fixes onConflict and onClosed/);
    const refused = (() => {
      try {
        startPolicy({ idempotencyKey: 'k', onConflict: 'terminate-existing', onClosed: 'allow' });
        return undefined;
      } catch (err) {
        return err as { status: number; issues: { path: string[] }[] };
      }
    })();
    expect(refused?.status).toBe(400);
    expect(refused?.issues.map((i) => i.path.join('.'))).toEqual(['body.onConflict', 'body.onClosed']);
  });

  it('derives one execution id per catalog, workflow name and key, clear of reserved ids', () => {
    const id = idempotentWorkflowId('main', 'order', 'key-1');
    expect(id).toMatch(/^idem-order-[0-9a-f]{32}$/);
    expect(idempotentWorkflowId('main', 'order', 'key-1')).toBe(id);
    expect(
      new Set([
        id,
        idempotentWorkflowId('other', 'order', 'key-1'),
        idempotentWorkflowId('main', 'invoice', 'key-1'),
        idempotentWorkflowId('main', 'order', 'key-2'),
      ]).size,
    ).toBe(4);
    // No separator can make two different triples collide.
    expect(idempotentWorkflowId('a', 'b_c', 'd')).not.toBe(idempotentWorkflowId('a_b', 'c', 'd'));
  });

  it('an Idempotency-Key is 1 to 200 bytes without control characters', () => {
    expect(idempotencyKeyProblem('a'.repeat(200))).toBeUndefined();
    expect(idempotencyKeyProblem('a'.repeat(201))).toMatch(/at most 200 bytes/);
    expect(idempotencyKeyProblem('')).toMatch(/empty/);
    expect(idempotencyKeyProblem('a\tb')).toMatch(/control characters/);
    expect(idempotencyKeyProblem('a\u007fb')).toMatch(/control characters/);
    // Node hands header bytes over as Latin-1: a UTF-8 key keeps its bytes, continuation bytes included.
    expect(idempotencyKeyProblem(Buffer.from('clé-ā', 'utf8').toString('latin1'))).toBeUndefined();
    const header = startHeadersSchema.safeParse({ 'idempotency-key': 'x'.repeat(201) });
    expect(header.success).toBe(false);
    expect(header.error!.issues[0]).toMatchObject({ path: ['idempotency-key'], message: 'Must be at most 200 bytes' });
    expect(startHeadersSchema.parse({ host: 'h' })).toEqual({});
  });

  it('startDelay is milliseconds or a duration string, 0 to 365 days', () => {
    expect(startDelaySchema.parse(1500)).toBe(1500);
    expect(startDelaySchema.parse('2s')).toBe(2000);
    expect(startDelaySchema.parse('1.5h')).toBe(5_400_000);
    expect(startDelaySchema.parse('250')).toBe(250);
    for (const bad of ['soon', '-1s', '400d', -1, 1.5, '']) expect(startDelaySchema.safeParse(bad).success, String(bad)).toBe(false);
    const r = startRequestSchema.safeParse({ workflowName: 'x', startDelay: 'later', onConflict: 'replace' });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join('.')).sort()).toEqual(['onConflict', 'startDelay']);
  });
});

describe('the OpenAPI document', () => {
  const doc = buildOpenApiDocument() as any;

  it('documents the start options, the Idempotency-Key header of start and run, and delayedUntil', () => {
    for (const path of ['/workflow/start', '/workflow/run']) {
      expect(doc.paths[path].post.parameters).toEqual([expect.objectContaining({ in: 'header', name: 'idempotency-key' })]);
    }
    const start = doc.components.schemas.StartRequest.properties;
    expect(start.onConflict.enum).toEqual(['fail', 'use-existing', 'terminate-existing']);
    expect(start.onClosed.enum).toEqual(['allow', 'allow-failed-only', 'reject']);
    expect(start.startDelay.anyOf.map((x: { type: string }) => x.type)).toEqual(['integer', 'string']);
    expect(doc.components.schemas.StatusResponse.required).toContain('delayedUntil');
  });

  it('documents the batch routes: 200 dry run, 202 start, 429 with Retry-After, 404 unknown batch', () => {
    const post = doc.paths['/workflow/batch'].post;
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['200', '202', '400', '429']));
    expect(post.responses['429'].headers).toHaveProperty('Retry-After');
    expect(doc.paths['/workflow/batch'].get.operationId).toBe('listBatches');
    expect(doc.paths['/workflow/batch/{batchId}'].get.responses['404'].description).toContain('BatchNotFoundError');
    expect(doc.paths['/workflow/runs'].get.parameters.map((p: { name: string }) => p.name)).toContain('query');
  });
});
