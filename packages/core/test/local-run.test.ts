import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as core from '../src/index.js';
import { condition, defineQuery, defineSignal, defineUpdate, setHandler, workflow, z, type WorkflowContext } from '../src/index.js';

describe('workflow context in Node (local runs)', () => {
  it('passes context.info to fn', async () => {
    let seen: WorkflowContext | undefined;
    const wf = workflow({ name: 'peek', fn: async (_: unknown, context) => ((seen = context), 'ok') });
    await expect(wf()).resolves.toBe('ok');
    expect(seen?.info).toMatchObject({ workflowType: 'peek', attempt: 1, parent: null, root: null, catalog: 'local' });
    expect(seen?.info.startTime).toBeTypeOf('number');
  });

  it('follows continueAsNew until a run returns, checking each input', async () => {
    const inputs: number[] = [];
    const runIds = new Set<string>();
    const count = workflow({
      name: 'countDown',
      inputSchema: z.object({ n: z.number().int().min(0) }),
      fn: async ({ n }, context) => {
        inputs.push(n);
        runIds.add(context.info.runId);
        if (n > 0) return context.control.continueAsNew({ n: n - 1 });
        return 'done';
      },
    });
    await expect(count({ n: 3 })).resolves.toBe('done');
    expect(inputs).toEqual([3, 2, 1, 0]);
    expect(runIds.size).toBe(4);
  });

  it('never suggests continuing as new, and takes overrides of the context from the call’s `context` option', async () => {
    const seen: Array<{ id: string; catalog: string; suggested: boolean }> = [];
    const wf = workflow({
      name: 'contextual',
      fn: async (_: unknown, context) => {
        seen.push({ id: context.info.workflowId, catalog: context.info.catalog, suggested: context.control.isContinueAsNewSuggested() });
        return 'ok';
      },
    });
    await wf();
    await wf(undefined, { context: { info: { workflowId: 'test-run-123' }, control: { isContinueAsNewSuggested: () => true } } });
    expect(seen[0]).toMatchObject({ catalog: 'local', suggested: false });
    expect(seen[0]!.id).toMatch(/^local-contextual-[0-9a-f-]{36}$/);
    expect(seen[1]).toEqual({ id: 'test-run-123', catalog: 'local', suggested: true });
  });

  it('fails a continueAsNew whose input fails the schema, naming it', async () => {
    const bad = workflow({
      name: 'badNext',
      inputSchema: z.object({ n: z.number() }),
      fn: async (_input, context) => context.control.continueAsNew({ n: 'x' } as never),
    });
    await expect(bad({ n: 1 })).rejects.toThrow('Invalid continueAsNew input of workflow "badNext": n:');
  });
});

describe('@skein/core re-exports Temporal signals, queries and updates', () => {
  it('defines them with Temporal’s own functions', () => {
    expect(defineSignal<[number]>('add')).toEqual({ type: 'signal', name: 'add' });
    expect(defineQuery<number>('total')).toEqual({ type: 'query', name: 'total' });
    expect(defineUpdate<number, [number]>('setTotal')).toEqual({ type: 'update', name: 'setTotal' });
    expect(setHandler).toBeTypeOf('function');
    expect(condition).toBeTypeOf('function');
  });

  it('exports the same helper names from the Node entry and the workflow-safe entry', async () => {
    const names = [
      'sleep',
      'executeInParallel',
      'defineSignal',
      'defineQuery',
      'defineUpdate',
      'setHandler',
      'condition',
      'FatalError',
      'ValidationError',
      'hasErrorType',
    ];
    for (const name of names) expect(core).toHaveProperty(name);
    const workflowEntry = await readFile(path.join(import.meta.dirname, '../src/workflow/helpers.ts'), 'utf8');
    const workflowIndex = await readFile(path.join(import.meta.dirname, '../src/workflow/index.ts'), 'utf8');
    for (const name of names) expect(workflowEntry + workflowIndex).toMatch(new RegExp(`\\b${name}\\b`));
  });
});

describe('@skein/core dependencies', () => {
  it('never depends on or imports @temporalio/worker', async () => {
    const pkg = JSON.parse(await readFile(path.join(import.meta.dirname, '../package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) expect(pkg[field] ?? {}).not.toHaveProperty('@temporalio/worker');
    const { readdir } = await import('node:fs/promises');
    const src = path.join(import.meta.dirname, '../src');
    const files = (await readdir(src, { recursive: true })).filter((f) => f.endsWith('.ts'));
    for (const f of files) expect(await readFile(path.join(src, f), 'utf8'), f).not.toMatch(/(from|import\()\s*['"]@temporalio\/worker/);
  });
});
