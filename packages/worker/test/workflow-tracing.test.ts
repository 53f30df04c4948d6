import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { WorkflowInfo } from '@temporalio/workflow';
import {
  tracingInterceptorsModule,
  untracedSinks,
  WORKFLOW_TRACING_GLOBAL,
  withWorkflowTracing,
  workflowSpanInfo,
} from '../src/interceptors/workflow-tracing.js';

const MAP = '//# sourceMappingURL=data:application/json;charset=utf-8;base64,e30=';

describe('withWorkflowTracing', () => {
  it('sets the switch when the bundle is evaluated, after its code and before its inline source map', () => {
    const code = `var __TEMPORAL__ = { ran: true };\n${MAP}\n`;
    const traced = withWorkflowTracing(code);
    // Temporal reads the map from the end of the code; every line before it keeps its place.
    expect(traced.endsWith(`\n${MAP}\n`)).toBe(true);
    expect(traced.startsWith('var __TEMPORAL__ = { ran: true };\n')).toBe(true);
    const context = vm.createContext({});
    vm.runInContext(traced, context);
    expect(context[WORKFLOW_TRACING_GLOBAL]).toBe(true);
    expect(context.__TEMPORAL__).toEqual({ ran: true });
    const untraced = vm.createContext({});
    vm.runInContext(code, untraced);
    expect(untraced[WORKFLOW_TRACING_GLOBAL]).toBeUndefined();
  });

  it('appends the switch to a bundle without a source map', () => {
    const context = vm.createContext({});
    vm.runInContext(withWorkflowTracing('var a = 1'), context);
    expect(context[WORKFLOW_TRACING_GLOBAL]).toBe(true);
  });

  it('is the switch the workflow-side interceptor module reads', () => {
    expect(readFileSync(tracingInterceptorsModule(), 'utf8')).toContain(`const TRACING_GLOBAL = '${WORKFLOW_TRACING_GLOBAL}';`);
  });
});

describe('untracedSinks', () => {
  it("registers OpenTelemetry's exporter sink, dropping what it is given", () => {
    const sinks = untracedSinks() as { exporter: { export: { fn: (...args: unknown[]) => unknown } } };
    expect(sinks.exporter.export.fn({}, [{ name: 'RunWorkflow:x' }])).toBeUndefined();
  });
});

describe('workflowSpanInfo', () => {
  it("hands OpenTelemetry's exporter the run's identity only: no memo, search attributes, last result or failure", () => {
    const info = {
      workflowId: 'w',
      runId: 'r',
      workflowType: 'onboard',
      taskQueue: 'main',
      namespace: 'default',
      attempt: 1,
      firstExecutionRunId: 'r0',
      continuedFromExecutionRunId: undefined,
      cronSchedule: '',
      parent: { workflowId: 'p', runId: 'pr', namespace: 'default' },
      root: { workflowId: 'root', runId: 'rr' },
      memo: { skeinTrace: { local: '/t/w/r.json' } },
      searchAttributes: { CustomKeywordField: ['x'] },
      lastResult: { secret: 'output of the last run' },
      lastFailure: { message: 'boom' },
      startTime: new Date(0),
      historyLength: 12,
    } as unknown as WorkflowInfo;
    expect(workflowSpanInfo(info)).toEqual({
      workflowId: 'w',
      runId: 'r',
      workflowType: 'onboard',
      taskQueue: 'main',
      namespace: 'default',
      attempt: 1,
      firstExecutionRunId: 'r0',
      parentWorkflowId: 'p',
      parentRunId: 'pr',
      rootWorkflowId: 'root',
      rootRunId: 'rr',
    });
  });
});
