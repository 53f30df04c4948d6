import { describe, expect, it } from 'vitest';
import { ApiError, ERROR_TABLE, errorBody, validationError, withHeaders } from '../src/errors.js';

describe('error table (CONTRACT "HTTP conventions")', () => {
  it('maps every CONTRACT error type to its HTTP status', () => {
    expect(Object.fromEntries(Object.entries(ERROR_TABLE).map(([k, v]) => [k, v.status]))).toMatchObject({
      ValidationError: 400,
      WorkflowNotFoundError: 404,
      UnsupportedWorkflowError: 404,
      CatalogNotAvailableError: 404,
      StepNotFoundError: 404,
      WorkflowExecutionTimedOutError: 408,
      WorkflowExecutionAlreadyStartedError: 409,
      WorkflowExecutionAlreadyCompletedError: 409,
      WorkflowNotCompletedError: 409,
      StepNotCompletedError: 409,
      PayloadTooLargeError: 413,
      InternalError: 500,
    });
  });

  it('renders ErrorResponse and ValidationErrorResponse bodies, never the cause', () => {
    const cause = new Error('grpc NOT_FOUND: secret engine detail');
    const e = new ApiError('WorkflowNotFoundError', { workflowId: 'w1', cause });
    expect(e.status).toBe(404);
    expect(errorBody(e)).toEqual({ error: 'WorkflowNotFoundError', message: 'Workflow execution not found', workflowId: 'w1' });
    expect(JSON.stringify(errorBody(e))).not.toContain('secret');
    const v = new ApiError('ValidationError', { message: 'bad', issues: [{ code: 'x', path: ['body'], message: 'm' }] });
    expect(errorBody(v)).toEqual({ error: 'ValidationError', message: 'bad', workflowId: null, issues: [{ code: 'x', path: ['body'], message: 'm' }] });
    expect(errorBody(v, 'order-42')).toMatchObject({ error: 'ValidationError', workflowId: 'order-42' });
    // Any error a request whose path names a valid id gets (413, 415, ...) is tied to that id, unless it names its own.
    expect(errorBody(new ApiError('PayloadTooLargeError'), 'order-42')).toMatchObject({ error: 'PayloadTooLargeError', workflowId: 'order-42' });
    expect(errorBody(new ApiError('WorkflowNotFoundError', { workflowId: 'w1' }), 'order-42')).toMatchObject({ workflowId: 'w1' });
    expect(errorBody(new ApiError('ValidationError'))).toMatchObject({ issues: [] });
    expect(errorBody(new ApiError('InternalError'))).toEqual({ error: 'InternalError', message: 'Internal server error', workflowId: null });
  });
});

describe('what an error exposes', () => {
  it('exposes its message for a 4xx and not for a 5xx, unless told so explicitly', () => {
    const client = new ApiError('WorkflowNotFoundError', { message: 'no run r1 of w1' });
    expect(client.expose).toBe(true);
    expect(errorBody(client)).toMatchObject({ message: 'no run r1 of w1' });
    const server = new ApiError('InternalError', { message: 'engine said: secret' });
    expect(server.expose).toBe(false);
    expect(errorBody(server)).toMatchObject({ message: 'Internal server error' });
    const written = new ApiError('WorkflowTaskTimeoutError', { message: 'No worker answered the query within 10 ms', expose: true });
    expect(errorBody(written)).toMatchObject({ message: 'No worker answered the query within 10 ms' });
    expect(new ApiError('NotFoundError', { expose: false }).expose).toBe(false);
  });

  it('carries its headers, to which more can be added', () => {
    const e = new ApiError('MethodNotAllowedError', { headers: { Allow: 'GET' } });
    expect(withHeaders(e, { Deprecation: 'true', Allow: 'POST' })).toBe(e);
    expect(e.headers).toEqual({ Allow: 'POST', Deprecation: 'true' });
  });
});

describe('ApiError as an Error', () => {
  it('is named ApiError and keeps its cause only when given one', () => {
    const cause = new Error('engine');
    expect(new ApiError('InternalError', { cause })).toMatchObject({ name: 'ApiError', cause });
    expect('cause' in new ApiError('InternalError')).toBe(false);
  });

  it('builds a ValidationError with its message and issues', () => {
    const issues = [{ code: 'x', path: ['body'], message: 'm' }];
    expect(validationError('bad body', issues)).toMatchObject({ type: 'ValidationError', status: 400, message: 'bad body', issues });
  });
});
