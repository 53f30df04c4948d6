/**
 * Harness of the API integration tests: a real Skein worker serving `fixtures/projects/api-suite` on a unique
 * catalog, the API on a free port with that catalog as default, and an HTTP helper that validates every
 * response against the server's own `/openapi.json`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Client, Connection } from '@temporalio/client';
import type { SkeinWorker } from '@skein/worker';
import type { ApiServer } from '@skein/api';
import type { Logger } from 'pino';
import { sharedTraceDir, startStack } from '../support/stack.js';

export const PROJECT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/projects/api-suite');

/** One HTTP exchange as the tests see it. */
export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  /** Raw body text (sent as is, with `Content-Type: application/json` unless `headers` override it). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface Harness {
  url: string;
  catalog: string;
  address: string;
  api: ApiServer;
  worker: SkeinWorker;
  client: Client;
  /** Directory where the worker writes local trace files. */
  traceDir: string;
  /** Calls `method template` (an OpenAPI path such as `/workflow/{id}/result`) and validates the reply against `/openapi.json`. */
  call<T = any>(method: string, template: string, options?: CallOptions): Promise<Reply<T>>;
  /** Number of responses validated so far. */
  validated(): number;
  close(): Promise<void>;
}

/**
 * Starts a worker and the API for one test file through the one harness of the integration tests (`startStack`: the
 * shared dev server from the global setup, a catalog of the file's own) on `fixtures/projects/api-suite`, with the
 * local trace folder the run's other harnesses on that project share (`sharedTraceDir`); `env` overrides API
 * environment variables, `projectDir` serves another fixture project than `api-suite`, `apiLogger` takes the API's logs.
 */
export async function startHarness(env: Record<string, string> = {}, options: { projectDir?: string; apiLogger?: Logger } = {}): Promise<Harness> {
  const traceDir = sharedTraceDir(options.projectDir ?? PROJECT_DIR);
  const stack = await startStack(
    options.projectDir ?? PROJECT_DIR,
    { TEMPORAL_NAMESPACE: 'default', SKEIN_TRACE_DIR: traceDir, ...env },
    { traceDir },
    { apiLogger: options.apiLogger },
  );
  const { url, catalog, address, api, worker } = stack;
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace: 'default' });

  const doc = (await (await fetch(`${url}/openapi.json`)).json()) as any;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const validators = new Map<string, (v: unknown) => boolean>();
  let count = 0;

  function validatorFor(method: string, template: string, status: number) {
    const key = `${method} ${template} ${status}`;
    let v = validators.get(key) as any;
    if (!v) {
      const op = doc.paths?.[template]?.[method.toLowerCase()];
      if (!op) throw new Error(`${method} ${template} is not in /openapi.json`);
      const response = op.responses?.[String(status)];
      if (!response) throw new Error(`${method} ${template} answered ${status}, which /openapi.json does not document`);
      const schema = response.content?.['application/json']?.schema;
      v = schema ? ajv.compile({ ...schema, components: doc.components }) : () => true;
      validators.set(key, v);
    }
    return v as ((x: unknown) => boolean) & { errors?: unknown };
  }

  async function call<T>(method: string, template: string, options: CallOptions = {}): Promise<Reply<T>> {
    let p = template;
    for (const [k, v] of Object.entries(options.params ?? {})) p = p.replace(`{${k}}`, encodeURIComponent(v));
    const qs = new URLSearchParams(Object.entries(options.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
    const hasBody = options.body !== undefined || options.rawBody !== undefined;
    const res = await fetch(`${url}${p}${qs ? `?${qs}` : ''}`, {
      method,
      headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...(options.headers ?? {}) },
      ...(hasBody ? { body: options.rawBody ?? JSON.stringify(options.body) } : {}),
    });
    const text = await res.text();
    const isJson = (res.headers.get('content-type') ?? '').includes('application/json');
    const body = isJson && text ? JSON.parse(text) : text;
    const validate = validatorFor(method, template, res.status);
    if (isJson) {
      const ok = validate(body);
      expect(ok, `${method} ${p} → ${res.status} does not match /openapi.json: ${JSON.stringify(validate.errors)} body=${text.slice(0, 500)}`).toBe(true);
    }
    expect(res.headers.get('x-request-id')).toBeTruthy();
    count += 1;
    return { status: res.status, headers: res.headers, body: body as T, text };
  }

  return {
    url,
    catalog,
    address,
    api,
    worker,
    client,
    traceDir,
    call,
    validated: () => count,
    async close() {
      await stack.close();
      await connection.close();
    },
  };
}

export { eventually } from '../support/poll.js';

/**
 * A raw exchange with `url` (no OpenAPI validation: some requests never reach a route): the status, headers, text
 * and the body parsed as JSON when it parses (else the text).
 */
export async function rawExchange(url: string, init: RequestInit = {}): Promise<Reply> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body, text };
}
