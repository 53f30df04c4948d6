import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { deriveCommandShapes } from '../../src/index.js';
import { project, render } from './project.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const STEPS = `import { step } from '@skein/core';
export const a = step({ name: 'a', fn: async () => 1 });
export const b = step({ name: 'b', fn: async () => 2 });
export const c = step({ name: 'c', fn: async () => 3 });
`;

/** The rendered shape of workflow `w` whose fn body is `body` (imports of the primitives and steps a, b, c given). */
async function shapeOf(body: string, extra: Record<string, string> = {}, header = ''): Promise<string> {
  const dir = project({
    'w/steps.ts': STEPS,
    'w/workflow.ts': `import { workflow, sleep, condition, continueAsNew, patched, deprecatePatch, executeInParallel, sendHttpRequest, setHandler, defineSignal } from '@skein/core';
import { a, b, c } from './steps.js';
${header}
export default workflow({ name: 'w', fn: async (input: any, context: any) => {
${body}
} });
`,
    ...extra,
  });
  dirs.push(dir);
  const set = await deriveCommandShapes(dir);
  const w = set.workflows.w!;
  const handlers = Object.entries(w.handlers).map(([name, h]) => ` | on ${name}: ${render(h)}`);
  return render(w.shape) + handlers.join('');
}

describe('command shapes: commands and waits', () => {
  it('reads awaited steps in order, typed <workflow>#<activity>', async () => {
    expect(await shapeOf('await a(); await b(input); return c();')).toBe('a(w#a) W a(w#b) W a(w#c) W ret');
  });
  it('reads timers, conditions with and without timeout, continue-as-new and HTTP', async () => {
    expect(
      await shapeOf(
        "await sleep('1s'); await condition(() => input.x); await condition(() => input.y, '1m'); await sendHttpRequest({ url: 'https://x' }); return continueAsNew(input);",
      ),
    ).toBe('timer W W timer W a(__internal#sendHttpRequest) W can ret');
  });
  it('reads upserts and the functions of cancellation scopes', async () => {
    expect(
      await shapeOf(
        "upsertSearchAttributes({ Stage: ['x'] }); await CancellationScope.cancellable(async () => { await a(); }); await CancellationScope.withTimeout(1000, () => b());",
        {},
        "import { CancellationScope, upsertSearchAttributes } from '@temporalio/workflow';",
      ),
    ).toBe('upsert call(a(w#a) W) W timer call(a(w#b)) W');
  });
  it('reads context.control.continueAsNew on the fn second parameter', async () => {
    expect(await shapeOf('await a(); return context.control.continueAsNew(input);')).toBe('a(w#a) W can ret');
  });
  it('does not wait for a command promise until it is awaited', async () => {
    expect(await shapeOf('const p = a(); await b(); await p;')).toBe('a(w#a) a(w#b) W');
  });
  it('ignores logic that issues no command', async () => {
    expect(await shapeOf('const x = JSON.stringify(input); if (x.length > 3) { console.log(x); } return x;')).toBe('ret');
  });
});

describe('command shapes: control flow', () => {
  it('models if/else as alternatives keyed by the condition', async () => {
    expect(await shapeOf('if (input.fast) { await a(); } else { await b(); } await c();')).toBe('alt[input.fast](then: a(w#a) W; else: a(w#b) W) a(w#c) W');
  });
  it('models ?: and && as alternatives', async () => {
    expect(await shapeOf('input.x ? await a() : await b(); input.y && (await c());')).toBe(
      'alt[input.x](then: a(w#a) W; else: a(w#b) W) alt[input.y](&&: a(w#c) W; short: )',
    );
  });
  it('models switch cases with fall-through and no default', async () => {
    expect(await shapeOf("switch (input.k) { case 'x': await a(); break; case 'y': await b(); case 'z': await c(); }")).toBe(
      'alt[input.k]("x": a(w#a) W; "y": a(w#b) W a(w#c) W; "z": a(w#c) W; none: )',
    );
  });
  it('keeps early returns in branches', async () => {
    expect(await shapeOf('if (input.stop) return 1; await a();')).toBe('alt[input.stop](then: ret; else: ) a(w#a) W');
  });
  it('models loops as repetition, with break', async () => {
    expect(await shapeOf('for (const x of input.xs) { await a(x); if (x) break; }')).toBe('loop(a(w#a) W alt[x](then: break; else: ))');
    expect(await shapeOf('let i = 0; while (i < 3) { await sleep(1); i++; }')).toBe('loop(timer W)');
  });
  it('models Promise.all and executeInParallel as parallel groups', async () => {
    expect(await shapeOf('await Promise.all([a(), b()]); await Promise.allSettled(input.xs.map((x: any) => c(x)));')).toBe(
      'par(a(w#a) | a(w#b)) W par(loop(call(a(w#c)))) W',
    );
    expect(await shapeOf('await executeInParallel({ jobs: input.xs.map((x: any) => () => a(x)), concurrency: 2 });')).toBe('par(loop(call(a(w#a)))) W');
    expect(await shapeOf('await executeInParallel({ jobs: [() => a(), () => b()] });')).toBe('par(call(a(w#a)) | call(a(w#b))) W');
  });
  it('reads Array.from callbacks as repetition, in a parallel group too', async () => {
    expect(await shapeOf('await Promise.all(Array.from({ length: input.n }, (_: unknown, i: number) => a(i)));')).toBe('par(loop(call(a(w#a)))) W');
    expect(await shapeOf('Array.from(input.xs, (x: any) => b(x));')).toBe('loop(call(a(w#b)))');
  });
  it('models patched() as guarded alternatives, negated too', async () => {
    expect(await shapeOf("if (patched('v2')) { await b(); } else { await a(); }")).toBe('patched[v2](a(w#b) W; a(w#a) W)');
    expect(await shapeOf("if (!patched('v2')) { await a(); } await c();")).toBe('patched[v2](; a(w#a) W) a(w#c) W');
    expect(await shapeOf("deprecatePatch('v1'); await a();")).toBe('patched[v1](; ) a(w#a) W');
  });
  it('models a catch block that issues commands as unprovable', async () => {
    expect(await shapeOf('try { await a(); } catch { await b(); }')).toMatch(
      /^alt\[try@\d+\]\(try: a\(w#a\) W; catch: partial\(a catch block that issues commands\) a\(w#b\) W\)$/,
    );
  });
});

describe('command shapes: helpers, children and handlers', () => {
  it('follows helpers in the same file and in other files, with .js-suffixed imports of .ts sources', async () => {
    const lib = `import { b } from '../w/steps.js';\nexport async function twice(x: number) { await b(x); await b(x); }\nexport const once = async () => { await b(0); };\n`;
    expect(
      await shapeOf(
        'await local(); await twice(1); await once();',
        { 'lib/run.ts': lib },
        "import { twice, once } from '../lib/run.js';\nasync function local() { await a(); }",
      ),
    ).toBe('call(a(w#a) W) W call(a(w#b) W a(w#b) W) W call(a(w#b) W) W');
  });
  it('follows a callback passed to a helper', async () => {
    const lib = `export async function retry(run: () => Promise<unknown>) { await run(); }\n`;
    expect(await shapeOf('await retry(() => a());', { 'lib/retry.ts': lib }, "import { retry } from '../lib/retry.js';")).toBe('call(call(a(w#a)) W) W');
  });
  it('reads imported workflows and executeChild as child workflows', async () => {
    const kid = `import { workflow } from '@skein/core';\nexport default workflow({ name: 'kid', fn: async () => 1 });\n`;
    expect(
      await shapeOf(
        "await kid({}); await executeChild('other', {});",
        { 'kid/workflow.ts': kid },
        "import kid from '../kid/workflow.js';\nimport { executeChild } from '@temporalio/workflow';",
      ),
    ).toBe('child(kid) W child(other) W');
  });
  it('records signal handlers that issue commands, by signal name', async () => {
    expect(
      await shapeOf(
        "setHandler(go, async () => { await c(); }); setHandler(defineSignal('quiet'), () => {}); await condition(() => false);",
        {},
        "const go = defineSignal('go');",
      ),
    ).toBe('W | on go: call(a(w#c) W)');
  });
  it('reads a shared step through a re-export', async () => {
    const shared = `import { step } from '@skein/core';\nexport const tidy = step({ name: 'tidy', fn: async () => 0 });\n`;
    expect(
      await shapeOf(
        'await tidy();',
        { 'shared/steps/tidy.ts': shared, 'lib/index.ts': "export { tidy } from '../shared/steps/tidy.js';\n" },
        "import { tidy } from '../lib/index.js';",
      ),
    ).toBe('a(w#tidy) W');
  });
});

describe('command shapes: what the analysis cannot follow is partial, with its place', () => {
  it('marks a dynamic import, a computed activity, a called parameter, a value of a choice, and recursion', async () => {
    expect(await shapeOf("const m = await import('./steps.js'); await m.a();")).toBe('partial(a dynamic import()) W');
    expect(await shapeOf('const acts = proxyActivities({}); await acts[input.name]();', {}, "import { proxyActivities } from '@temporalio/workflow';")).toBe(
      'partial(an activity called by a computed name) W',
    );
    expect(await shapeOf('const f = input.x ? a : b; await f();')).toBe(
      'alt[input.x](then: partial(a, a step or evaluator used as a value); else: partial(b, a step or evaluator used as a value)) partial(a call of f, a value the analysis cannot follow) W',
    );
    expect(await shapeOf('await again(3);', {}, 'async function again(n: number): Promise<void> { await a(); if (n) await again(n - 1); }')).toBe(
      'call(a(w#a) W alt[n](then: partial(a recursive call) W; else: )) W',
    );
  });
  it('follows a recursive function that issues no command without a partial point', async () => {
    expect(
      await shapeOf(
        'try { await a(); } catch (err) { console.log(root(err as Error).message); }',
        {},
        'const root = (err: Error): Error => (err.cause instanceof Error ? root(err.cause) : err);',
      ),
    ).toBe('a(w#a) W');
  });
  it('records each partial point with its file, line and column', async () => {
    const dir = project({
      'w/workflow.ts':
        "import { workflow } from '@skein/core';\nexport default workflow({ name: 'w', versioningBehavior: 'auto-upgrade', fn: async () => {\n  await import('./x.js');\n} });\n",
    });
    dirs.push(dir);
    const w = (await deriveCommandShapes(dir)).workflows.w!;
    expect(w.versioningBehavior).toBe('auto-upgrade');
    expect(w.partial).toEqual([{ construct: 'a dynamic import()', at: { file: 'w/workflow.ts', line: 3, column: 9 } }]);
  });
  it('marks a workflow whose fn a wrapper supplies', async () => {
    const dir = project({
      'w/workflow.ts': "import { make } from '../lib.js';\nexport default make({ name: 'w' });\n",
      'lib.ts': 'export const make = (c: any) => c;\n',
    });
    dirs.push(dir);
    const w = (await deriveCommandShapes(dir)).workflows.w!;
    expect(render(w.shape)).toBe('partial(a workflow whose fn is supplied by make)');
    expect(w.versioningBehavior).toBe('pinned');
  });
});

describe('command shapes: steps used as values, condition waits, deprecated patches', () => {
  it('makes a step put in an array or object partial at that point, and a module-level table of steps partial where it is read, naming its entries', async () => {
    expect(await shapeOf('const plan = [a, b].slice(0, input.n); for (const s of plan) await s();')).toBe(
      'partial(a, a step or evaluator used as a value) partial(b, a step or evaluator used as a value) loop(partial(a call of s, a value the analysis cannot follow) W)',
    );
    expect(await shapeOf('await table[input.k]!();', {}, 'const table: Record<string, () => Promise<unknown>> = { x: a, y: b };')).toBe(
      'partial(table, a table of steps, evaluators or workflows (x: w#a, y: w#b), called by a key known at run time) W',
    );
  });
  it('follows a step passed to a helper into the helper, where calling the parameter issues it', async () => {
    expect(await shapeOf('await run(a);', {}, 'async function run(s: () => Promise<unknown>) { await s(); }')).toBe('call(a(w#a) W) W');
  });
  it('keeps a condition() wait apart from the result wait before it (a workflow task that issued nothing)', async () => {
    expect(await shapeOf('await a(); await condition(() => input.go); await b();')).toBe('a(w#a) W W a(w#b) W');
    expect(await shapeOf("await a(); const ok = await condition(() => input.go, '1h'); if (!ok) return; await b();")).toBe(
      'a(w#a) W timer W alt[condition-held(ok)](timed-out: ret; held: ) a(w#b) W',
    );
  });
  it('marks the patch of deprecatePatch() as deprecated', async () => {
    const dir = project({
      'w/steps.ts': STEPS,
      'w/workflow.ts': `import { workflow, deprecatePatch } from '@skein/core';
import { a } from './steps.js';
export default workflow({ name: 'w', fn: async () => { deprecatePatch('p'); await a(); } });
`,
    });
    dirs.push(dir);
    const shape = (await deriveCommandShapes(dir)).workflows.w!.shape;
    expect(shape.kind === 'seq' && shape.items[0]).toMatchObject({ kind: 'patched', id: 'p', deprecated: true });
  });
});
