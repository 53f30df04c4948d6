import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { tracingInterceptorsModule, untracedSinks, WORKFLOW_TRACING_GLOBAL, withWorkflowTracing } from '../src/interceptors/workflow-tracing.js';

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
