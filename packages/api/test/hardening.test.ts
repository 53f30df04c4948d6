import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLimitIssue, MAX_JSON_DEPTH } from '../src/middleware/body-limits.js';
import { browserGuard, hostAllowed, originAllowed } from '../src/middleware/browser.js';
import { buildOpenApiDocument } from '../src/openapi.js';
import { catalogNameSchema, newWorkflowIdSchema, workflowIdSchema } from '../src/schemas/common.js';
import { isUnknownUpdate, nameList, unknownQueryNames } from '../src/temporal/handlers.js';
import { traceFilePath } from '@skein/names/traces';
import { confinedTraceFile, localTraceFile } from '../src/temporal/trace-source.js';

const nested = (levels: number) => JSON.parse(`${'['.repeat(levels)}1${']'.repeat(levels)}`);

describe('request limits', () => {
  it('counts nesting from the body (level 1) and stops at the first level past the limit, at any depth', () => {
    expect(jsonLimitIssue(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(jsonLimitIssue(nested(MAX_JSON_DEPTH + 1))).toMatchObject({ code: 'too_deep' });
    expect(jsonLimitIssue(nested(100_000))).toMatchObject({ code: 'too_deep' });
    expect(jsonLimitIssue({ a: { b: [{}] } }, 3)).toMatchObject({ code: 'too_deep', path: ['body', 'a', 'b', 0] });
  });

  it('finds lone surrogates in values and keys, not in well-formed pairs', () => {
    expect(jsonLimitIssue({ x: ['ok', 'é😀'] })).toBeUndefined();
    expect(jsonLimitIssue({ x: ['ok', 'a\ud800'] })).toMatchObject({ code: 'invalid_string', path: ['body', 'x', 1] });
    expect(jsonLimitIssue({ ['\udc00']: 1 })).toMatchObject({ code: 'invalid_string' });
  });

  it('bounds workflow ids in UTF-8 bytes, as the engine counts them', () => {
    expect(workflowIdSchema.safeParse('é'.repeat(500)).success).toBe(true);
    expect(workflowIdSchema.safeParse('é'.repeat(501)).success).toBe(false);
    expect(workflowIdSchema.safeParse('x'.repeat(1000)).success).toBe(true);
    expect(workflowIdSchema.safeParse('').success).toBe(false);
  });

  it('refuses "." and ".." as the id of a new execution (no URL path can name them), and only there', () => {
    for (const id of ['.', '..']) {
      const r = newWorkflowIdSchema.safeParse(id);
      expect(r.success, id).toBe(false);
      expect(r.error?.issues[0]?.message).toMatch(/must not be "\." or "\.\." \(no URL path can name them\)/);
      // A run another client started under such an id stays addressable by a client that sends the path as is.
      expect(workflowIdSchema.safeParse(id).success, id).toBe(true);
    }
    for (const id of ['...', '.a', 'a.', '..b', 'order.42']) expect(newWorkflowIdSchema.safeParse(id).success, id).toBe(true);
    for (const id of ['$catalog:main', 'a\u001b[31m']) expect(newWorkflowIdSchema.safeParse(id).success, id).toBe(false);
  });

  it("refuses ids starting with $ (Skein's records) and ids holding C0 control characters or DEL; other Unicode is accepted", () => {
    for (const id of ['$catalog:main', '$lease:main@b1', '$']) {
      const r = workflowIdSchema.safeParse(id);
      expect(r.success, id).toBe(false);
      expect(r.error?.issues[0]?.message).toMatch(/reserved for Skein's own records/);
    }
    for (const id of ['a\u001b[31m', 'a\nb', '\u0000', 'a\u007f', 'x\u001f']) {
      const r = workflowIdSchema.safeParse(id);
      expect(r.success, JSON.stringify(id)).toBe(false);
      expect(r.error?.issues[0]?.message).toMatch(/control characters/);
    }
    for (const id of ['order-42', 'a$b', 'été', 'a\u0080b', 'emoji-🙂']) expect(workflowIdSchema.safeParse(id).success, id).toBe(true);
  });

  it('refuses "@" in catalog names', () => {
    expect(catalogNameSchema.safeParse('main').success).toBe(true);
    expect(catalogNameSchema.safeParse('main@b1').success).toBe(false);
  });
});

describe('browser allow-lists', () => {
  const policy = { corsOrigins: ['https://app.example.com'], allowedHosts: ['skein.internal'], listenHost: '127.0.0.1' };

  it('allows loopback origins on any port and listed ones; refuses others, opaque and non-http origins', () => {
    for (const o of ['http://localhost:5173', 'https://127.0.0.1', 'http://[::1]:8080', 'http://app.localhost:3000', 'https://app.example.com']) {
      expect(originAllowed(o, policy), o).toBe(true);
    }
    for (const o of ['https://evil.example', 'null', 'file://', 'http://localhost.evil.example', 'https://app.example.com.evil.example']) {
      expect(originAllowed(o, policy), o).toBe(false);
    }
    expect(originAllowed('https://anything.example', { ...policy, corsOrigins: ['*'] })).toBe(true);
  });

  it('allows loopback hosts, the listen address and listed names, with or without port', () => {
    for (const h of ['localhost:3001', '127.0.0.1', '[::1]:3001', 'skein.internal', 'skein.internal:8080']) expect(hostAllowed(h, policy), h).toBe(true);
    for (const h of ['evil.example', 'evil.example:3001', 'localhost@evil.example', 'a/b']) expect(hostAllowed(h, policy), h).toBe(false);
    expect(hostAllowed('10.0.0.5:3001', { ...policy, listenHost: '10.0.0.5' })).toBe(true);
    expect(hostAllowed('10.0.0.5:3001', { ...policy, listenHost: '0.0.0.0' })).toBe(false);
  });
});

describe('health probes and the Host allow-list', () => {
  const guard = browserGuard({ corsOrigins: [], allowedHosts: [], listenHost: '0.0.0.0' });
  /** Runs the guard on a request line and headers; resolves whether it let the request through. */
  const passes = async (method: string, path: string, headers: Record<string, string>) => {
    let reached = false;
    const ctx = { method, path, get: (name: string) => headers[name] ?? '', set: () => {}, vary: () => {}, response: {}, headers } as never;
    await guard(ctx, async () => {
      reached = true;
    });
    return reached;
  };

  it('answers /health and /ready whatever the Host (a pod probed by its address)', async () => {
    expect(await passes('GET', '/health', { Host: '10.1.2.3:3001' })).toBe(true);
    expect(await passes('GET', '/ready', { Host: '10.1.2.3:3001' })).toBe(true);
  });

  it('still refuses any other path, or a probe path with another method, from a host not on the list', async () => {
    await expect(passes('POST', '/workflow/run', { Host: '10.1.2.3:3001' })).rejects.toMatchObject({ type: 'ForbiddenOriginError', status: 403 });
    await expect(passes('GET', '/workflow/catalog', { Host: '10.1.2.3:3001' })).rejects.toMatchObject({ type: 'ForbiddenOriginError', status: 403 });
    await expect(passes('POST', '/health', { Host: 'evil.example' })).rejects.toMatchObject({ type: 'ForbiddenOriginError', status: 403 });
    await expect(passes('GET', '/health', { Host: '10.1.2.3:3001', Origin: 'https://evil.example' })).rejects.toMatchObject({
      type: 'ForbiddenOriginError',
      status: 403,
    });
  });
});

describe('handler names from engine failures', () => {
  it('reads the registered queries from the SDK and server messages, built-ins left out', () => {
    expect(
      unknownQueryNames(
        'Workflow did not register a handler for nope. Registered queries: [__stack_trace __enhanced_stack_trace __temporal_workflow_metadata state greeting]',
      ),
    ).toEqual(['greeting', 'state']);
    expect(unknownQueryNames('unknown queryType nope. KnownQueryTypes=[a b]')).toEqual(['a', 'b']);
    expect(unknownQueryNames('Error: boom in the handler')).toBeUndefined();
    expect(isUnknownUpdate('No registered handler for update: nope')).toBe(true);
    expect(isUnknownUpdate('boom')).toBe(false);
    expect(nameList([])).toBe('none');
    expect(nameList(['a', 'b'])).toBe('"a", "b"');
  });
});

describe('trace sources', () => {
  it('reads local traces only inside the trace folder, symbolic links resolved', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skein-trace-src-'));
    const traces = path.join(dir, 'traces');
    mkdirSync(path.join(traces, 'wf'), { recursive: true });
    writeFileSync(path.join(traces, 'wf', 'r.json'), '{}');
    writeFileSync(path.join(dir, 'secret.json'), '{}');
    symlinkSync(path.join(dir, 'secret.json'), path.join(traces, 'wf', 'link.json'));
    expect(await confinedTraceFile(traces, path.join(traces, 'wf', 'r.json'))).toBe(path.join(traces, 'wf', 'r.json'));
    expect(await confinedTraceFile(traces, path.join(traces, 'wf', '..', '..', 'secret.json'))).toBeUndefined();
    expect(await confinedTraceFile(traces, path.join(traces, 'wf', 'link.json'))).toBeUndefined();
    expect(await confinedTraceFile(traces, 'wf/r.json')).toBeUndefined();
    expect(await confinedTraceFile(traces, path.join(traces, 'missing.json'))).toBeUndefined();
  });

  it("reads only the root's own file in a trace folder, the memo's folder first, whatever file the memo names", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skein-trace-own-'));
    const later = mkdtempSync(path.join(tmpdir(), 'skein-trace-later-'));
    const root = { workflowId: 'wf', runId: 'r1' };
    const own = traceFilePath(dir, root);
    const other = traceFilePath(dir, { workflowId: 'wf', runId: 'r2' });
    mkdirSync(path.dirname(own), { recursive: true });
    writeFileSync(own, '{}');
    writeFileSync(other, '{}');
    expect(await localTraceFile([dir], root, own)).toBe(own);
    expect(await localTraceFile([dir], root, other)).toBe(own);
    expect(await localTraceFile([dir], { workflowId: 'wf', runId: 'r3' }, other)).toBeUndefined();
    expect(await localTraceFile(['/elsewhere', dir], root, own)).toBe(own);
    expect(await localTraceFile(['relative', dir], root)).toBe(own);
    expect(await localTraceFile([], root, own)).toBeUndefined();
    // Both folders hold the root's file: the memo's folder is read first, whatever the order of the folders.
    const second = traceFilePath(later, root);
    mkdirSync(path.dirname(second), { recursive: true });
    writeFileSync(second, '{}');
    expect(await localTraceFile([dir, later], root, second)).toBe(second);
    expect(await localTraceFile([dir, later], root, own)).toBe(own);
  });
});

describe('OpenAPI security', () => {
  it('describes bearerAuth always and requires it only with a token; /health and /ready never', () => {
    const open = buildOpenApiDocument() as any;
    const guarded = buildOpenApiDocument(undefined, undefined, true) as any;
    expect(open.security).toEqual([]);
    expect(guarded.security).toEqual([{ bearerAuth: [] }]);
    expect(open.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(guarded.paths['/health'].get.security).toEqual([]);
    expect(open.paths['/workflow/run'].post.responses).toHaveProperty('415');
    expect(open.paths['/workflow/run'].post.responses).toHaveProperty('403');
    expect(open.paths['/workflow/{id}/query/{query}'].post.responses).toHaveProperty('504');
  });
});
