import { describe, expect, it } from 'vitest';
import { GRPC } from '../src/temporal/engine.js';
import { assertSelfContained, quoteLiteral, refusedQuery, restrictQuery, sanitizeEngineMessage } from '../src/temporal/visibility-query.js';
import { batchQuery } from '../src/temporal/batch.js';
import { ApiError } from '../src/errors.js';

function refusal(query: string): ApiError | undefined {
  try {
    assertSelfContained(query, 'body');
    return undefined;
  } catch (err) {
    return err as ApiError;
  }
}

describe("a caller's visibility query", () => {
  it('accepts one self-contained expression, parentheses and quoted parentheses included', () => {
    for (const q of [
      "WorkflowType = 'order'",
      "(WorkflowType = 'a' OR WorkflowType = 'b') AND ExecutionStatus = 'Running'",
      "WorkflowId IN ('x', 'y)', 'z(')",
      "WorkflowId = 'it\\'s (fine'",
      'WorkflowId = "a)b"',
      "WorkflowId = 'a'')'",
      '`CustomKeyword` = 1',
      "StartTime > '2026-01-01T00:00:00Z'",
    ]) {
      expect(refusal(q), q).toBeUndefined();
    }
  });

  it('refuses text that could close the group Skein puts it in, unclosed strings and comments', () => {
    const cases: [string, RegExp][] = [
      ["WorkflowType = 'x') OR (WorkflowType != 'y'", /character 19 closes a parenthesis/],
      [') OR (1 = 1', /closes a parenthesis/],
      ["(WorkflowType = 'x'", /1 parenthesis is not closed/],
      ["WorkflowType = 'x", /string opened with ' is not closed/],
      ["WorkflowType = 'x' -- ) OR (", /comments are not accepted/],
      ["WorkflowType = 'x' /* ( */) OR (WorkflowType = 'y' /* ) */", /comments are not accepted/],
      ["WorkflowType = 'x' # )", /comments are not accepted/],
    ];
    for (const [q, message] of cases) {
      const err = refusal(q);
      expect(err, q).toBeInstanceOf(ApiError);
      expect(err!.status).toBe(400);
      expect(err!.message).toMatch(message);
      expect(err!.issues).toEqual([expect.objectContaining({ code: 'invalid_query', path: ['body', 'query'] })]);
    }
  });

  it("is ANDed last, in parentheses, after Skein's own clauses", () => {
    expect(restrictQuery(["TaskQueue = 'c'"], undefined, 'query')).toBe("TaskQueue = 'c'");
    expect(restrictQuery(["TaskQueue = 'c'", "WorkflowType != '$catalog'"], 'A = 1 OR B = 2', 'query')).toBe(
      "TaskQueue = 'c' AND WorkflowType != '$catalog' AND (A = 1 OR B = 2)",
    );
  });

  it('a batch query keeps to one catalog and never reaches the $catalog registry or the records catalog', () => {
    expect(batchQuery("it's", "ExecutionStatus = 'Running'")).toBe("TaskQueue = 'it\\'s' AND WorkflowType != '$catalog' AND (ExecutionStatus = 'Running')");
    expect(() => batchQuery('skein-records', "ExecutionStatus = 'Running'")).toThrow(/skein-records/);
    expect(quoteLiteral('a\\b')).toBe("'a\\\\b'");
  });

  it("passes the engine's reason for refusing a query on, on one line and bounded", () => {
    expect(sanitizeEngineMessage('invalid query:\n\tunknown field\u0007 Foo')).toBe('invalid query: unknown field Foo');
    expect(sanitizeEngineMessage('x'.repeat(1000))).toHaveLength(300);
    const grpc = Object.assign(new Error('3 INVALID_ARGUMENT: invalid query'), {
      code: GRPC.INVALID_ARGUMENT,
      details: 'invalid query: unable to parse\nnear "Foo"',
      metadata: {},
    });
    const err = refusedQuery(grpc, 'query');
    expect([err.status, err.type, err.message]).toEqual([400, 'ValidationError', 'Invalid query: unable to parse near "Foo"']);
    expect(err.issues).toEqual([{ code: 'rejected_by_engine', path: ['query', 'query'], message: 'unable to parse near "Foo"' }]);
    const unavailable = Object.assign(new Error('14 UNAVAILABLE'), { code: 14, details: 'down', metadata: {} });
    expect(refusedQuery(unavailable, 'body').type).toBe('InternalError');
  });
});
