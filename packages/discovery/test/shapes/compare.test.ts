import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { compareShapes, deriveCommandShapes, type ShapeVerdict } from '../../src/index.js';
import { project } from './project.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const STEPS = `import { step } from '@skein/core';
export const a = step({ name: 'a', fn: async () => 1 });
export const b = step({ name: 'b', fn: async () => 2 });
export const c = step({ name: 'c', fn: async () => 3 });
export const d = step({ name: 'd', fn: async () => 4 });
`;

function source(body: string, header = ''): Record<string, string> {
  return {
    'w/steps.ts': STEPS,
    'w/workflow.ts': `import { workflow, sleep, condition, continueAsNew, patched, setHandler, defineSignal } from '@skein/core';
import { a, b, c, d } from './steps.js';
${header}
export default workflow({ name: 'w', versioningBehavior: 'auto-upgrade', fn: async (input: any) => {
${body}
} });
`,
  };
}

/** The verdict of changing the fn body `v1` to `v2` (extra files in `files2`), with positions as `line:column` of the new file. */
async function verdict(
  v1: string,
  v2: string,
  opts: { header1?: string; header2?: string; files1?: Record<string, string>; files2?: Record<string, string> } = {},
): Promise<ShapeVerdict> {
  const d1 = project({ ...source(v1, opts.header1), ...opts.files1 });
  const d2 = project({ ...source(v2, opts.header2), ...opts.files2 });
  dirs.push(d1, d2);
  const [s1, s2] = await Promise.all([deriveCommandShapes(d1), deriveCommandShapes(d2)]);
  return compareShapes(s1.workflows.w!, s2.workflows.w!);
}

const kind = async (v1: string, v2: string, opts?: Parameters<typeof verdict>[2]) => (await verdict(v1, v2, opts)).verdict;

describe('compareShapes: compatible changes are not reported', () => {
  it('same commands with other arguments, durations and logic', async () => {
    expect(await kind("await a(input); await sleep('1s');", "const x = input.n + 1; await a({ x }); await sleep('5m'); console.log(x);")).toBe('same');
  });
  it('commands appended after the last wait', async () => {
    expect(await kind('await a(); await b();', 'await a(); await b(); await c(); await sleep(10);')).toBe('compatible');
    expect(await kind('await a();', 'await a(); return continueAsNew(input);')).toBe('compatible');
  });
  it('a change guarded by patched()', async () => {
    expect(await kind('await a(); await b();', "await a(); if (patched('add-c')) { await c(); } await b();")).toBe('compatible');
    expect(await kind('await a(); await b();', "await a(); if (patched('swap')) { await c(); } else { await b(); }")).toBe('compatible');
  });
  it('a new branch that only ever issues the old commands', async () => {
    expect(await kind('await a(); await b();', 'await a(); if (input.x) { await b(); } else { await b(); }')).toBe('compatible');
  });
  it('new commands in a branch after every wait of the old code', async () => {
    expect(await kind('if (input.x) { await a(); } await b();', 'if (input.x) { await a(); } await b(); if (input.y) await c();')).toBe('compatible');
  });
});

describe('compareShapes: incompatible changes', () => {
  it('a step inserted before a wait, naming the new call and the old command', async () => {
    const v = await verdict('await a(); await b();', 'await a(); await c(); await b();');
    expect(v).toMatchObject({
      verdict: 'incompatible',
      at: { file: 'w/workflow.ts', line: 5, column: 18 },
      newCommand: { command: 'activity', type: 'w#c' },
      old: { command: 'activity', type: 'w#b', at: { line: 5, column: 18 } },
    });
  });
  it('a step removed, steps reordered, a type changed, a timer replaced by an activity', async () => {
    expect(await kind('await a(); await b(); await c();', 'await a(); await c();')).toBe('incompatible');
    expect(await kind('await a(); await b();', 'await b(); await a();')).toBe('incompatible');
    expect(await kind('await a(); await b();', 'await a(); await d();')).toBe('incompatible');
    expect(await kind("await sleep('1m'); await b();", 'await a(); await b();')).toBe('incompatible');
  });
  it('commands of one workflow task split over two', async () => {
    expect(await kind('await Promise.all([a(), b()]); await c();', 'await a(); await b(); await c();')).toBe('incompatible');
  });
  it('a branch changed under the same condition, or the branches swapped', async () => {
    expect(await kind('if (input.x) { await a(); } else { await b(); } await c();', 'if (input.x) { await b(); } else { await a(); } await c();')).toBe(
      'incompatible',
    );
    expect(await kind('if (input.x) { await a(); } await c();', 'if (input.x) { await a(); } else { await d(); } await c();')).toBe('incompatible');
  });
  it('a loop body changed', async () => {
    expect(await kind('for (const x of input.xs) { await a(x); }', 'for (const x of input.xs) { await a(x); await b(x); }')).toBe('incompatible');
  });
  it('a branch added to a parallel group', async () => {
    expect(await kind('await Promise.all([a(), b()]); await c();', 'await Promise.all([a(), b(), d()]); await c();')).toBe('incompatible');
  });
  it('a patch removed while old runs may hold its marker', async () => {
    expect(await kind("await a(); if (patched('p')) { await c(); } else { await b(); } await d();", 'await a(); await c(); await d();')).toBe('incompatible');
  });
  it('a helper in another file changed', async () => {
    const lib = (body: string) => ({ 'lib/h.ts': `import { b, c } from '../w/steps.js';\nexport async function h() { ${body} }\n` });
    const header = "import { h } from '../lib/h.js';";
    expect(
      await kind('await a(); await h(); await d();', 'await a(); await h(); await d();', {
        header1: header,
        header2: header,
        files1: lib('await b();'),
        files2: lib('await b(); await c();'),
      }),
    ).toBe('incompatible');
  });
  it('a signal handler that now issues a command', async () => {
    const header = "const go = defineSignal('go');";
    const v = await verdict(
      'setHandler(go, () => {}); await a(); await condition(() => false);',
      'setHandler(go, async () => { await b(); }); await a(); await condition(() => false);',
      { header1: header, header2: header },
    );
    expect(v).toMatchObject({ verdict: 'incompatible', part: 'handler go', newCommand: { type: 'w#b' } });
  });
});

describe('compareShapes: unprovable changes', () => {
  it('commands of two workflow tasks joined into one', async () => {
    const v = await verdict('await a(); await b(); await c();', 'await Promise.all([a(), b()]); await c();');
    expect(v).toMatchObject({ verdict: 'unprovable', construct: 'commands the baseline issued in separate workflow tasks, now issued together' });
  });
  it('a command added to the last workflow task a run can be waiting in is new history: compatible', async () => {
    expect(await kind('await Promise.all([a(), b()]);', 'await Promise.all([a(), b(), c()]);')).toBe('compatible');
  });
  it('a new decision before a wait that the old code did not make', async () => {
    expect(await kind('await a(); await b();', 'await a(); if (input.flag) { await c(); } await b();')).toBe('unprovable');
  });
  it('a change behind a construct the analysis cannot follow, naming it', async () => {
    const v = await verdict(
      'await a(); const f = input.x ? b : c; await f(); await d();',
      'await a(); const f = input.x ? b : c; await f(); await c(); await d();',
    );
    expect(v).toMatchObject({ verdict: 'unprovable', construct: 'b, a step or evaluator used as a value' });
  });
  it('a patched() result kept in a variable, naming how to write the guard the analysis follows', async () => {
    const v = await verdict(
      "await a(); await sleep('1d'); await b();",
      "await a(); const p = patched('add-c'); if (p) { await c(); } await sleep('1d'); await b();",
    );
    expect(v).toMatchObject({
      verdict: 'unprovable',
      construct: "the patched('add-c') result kept in `p` (the analysis follows a guard written as `if (patched('add-c'))`)",
    });
  });
});

describe('compareShapes: steps as values, decisions made later, deprecated patches, condition waits', () => {
  it('a changed entry of a table of steps called by a run-time key is unprovable, never compatible', async () => {
    expect(
      await kind('await d(); await t[input.k]!(); await sleep(1); await d();', 'await d(); await t[input.k]!(); await sleep(1); await d();', {
        header1: 'const t: Record<string, () => Promise<unknown>> = { x: a, y: b };',
        header2: 'const t: Record<string, () => Promise<unknown>> = { x: a, y: c };',
      }),
    ).toBe('unprovable');
  });
  it('a changed list of steps computed at run time is unprovable', async () => {
    expect(
      await kind(
        'await d(); const plan = [a, b].slice(0, input.n); for (const s of plan) await s(); await sleep(1);',
        'await d(); const plan = [c, a, b].slice(0, input.n); for (const s of plan) await s(); await sleep(1);',
      ),
    ).toBe('unprovable');
  });
  it('a continue-as-new moved before a wait the old code decided it after is incompatible (the decision is the same)', async () => {
    expect(
      await kind(
        'await a(); await sleep(1); await b(); if (input.round < 1) return continueAsNew(input); await c();',
        'await a(); if (input.round < 1) return continueAsNew(input); await sleep(1); await b(); await c();',
      ),
    ).toBe('incompatible');
  });
  it('patched(id) replaced by deprecatePatch(id) keeping the new code is compatible; dropping the guard without it is not', async () => {
    const v1 = "await a(); if (patched('p')) { await b(); } await sleep(1); await c();";
    expect(
      await kind(v1, "await a(); deprecatePatch('p'); await b(); await sleep(1); await c();", { header2: "import { deprecatePatch } from '@skein/core';" }),
    ).toBe('compatible');
    expect(await kind(v1, 'await a(); await b(); await sleep(1); await c();')).toBe('incompatible');
  });
  it('a timeout added to the condition a run waits in is compatible: its timer is a new command of the task that began the wait', async () => {
    const v1 = 'await a(); await condition(() => input.go); await b();';
    expect(await kind(v1, "await a(); const ok = await condition(() => input.go, '1h'); if (!ok) return; await b();")).toBe('compatible');
    // A timer awaited on its own before the condition: the history holds no firing of it.
    expect(await kind(v1, 'await a(); await sleep(1); await condition(() => input.go); await b();')).toBe('incompatible');
    // No condition in the old code: the task after a() issued b(), the new timer replaces it.
    expect(await kind('await a(); await b();', "await a(); await condition(() => input.go, '1h'); await b();")).toBe('incompatible');
  });
});

describe('compareShapes: activity ids set in options (Temporal matches them on replay, as types)', () => {
  const steps = (aOptions: string, bOptions = '') => ({
    'w/steps.ts': STEPS.replace("step({ name: 'a',", `step({ name: 'a', ${aOptions}`).replace("step({ name: 'b',", `step({ name: 'b', ${bOptions}`),
  });
  const idOf = (id: string) => `options: { activityOptions: { activityId: ${id}, retry: { maximumAttempts: 2 } } },`;

  it('an id set, changed or removed on a step a run may have scheduled is incompatible, naming both', async () => {
    const body = 'await a(); await sleep(1); await b();';
    expect(await verdict(body, body, { files2: steps(idOf("'fetch'")) })).toMatchObject({
      verdict: 'incompatible',
      newCommand: { command: 'activity', type: 'w#a', activityId: 'fetch' },
      old: { command: 'activity', type: 'w#a' },
    });
    expect(await verdict(body, body, { files2: steps(idOf("'fetch'")) })).not.toHaveProperty('old.activityId');
    expect(await kind(body, body, { files1: steps(idOf("'fetch'")), files2: steps(idOf("'load'")) })).toBe('incompatible');
    expect(await kind(body, body, { files1: steps(idOf("'fetch'")) })).toBe('incompatible');
  });
  it('the same id, or a step with an id appended after the last wait, is not reported', async () => {
    const body = 'await a(); await sleep(1); await b();';
    expect(await kind(body, body, { files1: steps(idOf("'fetch'")), files2: steps(idOf('`fetch`')) })).toBe('same');
    expect(await kind('await a(); await sleep(1);', body, { files2: steps('', idOf("'store'")) })).toBe('compatible');
  });
  it('reads the id through TypeScript wrappers and the last property written; spreads and variables are not read', async () => {
    const body = 'await a(); await sleep(1); await b();';
    const same = async (files2: Record<string, string>) => kind(body, body, { files1: steps(idOf("'fetch'")), files2 });
    expect(await same(steps("options: { activityOptions: { activityId: 'fetch' as const } } satisfies object,"))).toBe('same');
    expect(await same(steps("options: { activityOptions: { activityId: 'x', ...{}, activityId: ('fetch') } },"))).toBe('same');
    expect(await kind(body, body, { files2: steps('options: { activityOptions: { ...{ activityId: "x" } } },') })).toBe('same');
    expect(await kind(body, body, { files2: steps('options: {} as never,') })).toBe('same');
  });
  it('an id that is not a static string makes the step partial, so a change there is unprovable, never compatible', async () => {
    for (const options of ['options: { activityOptions: { activityId: `a-${Date.now()}` } },', 'options: { activityOptions: { activityId() {} } },']) {
      const dynamic = steps(options);
      expect(await kind('await a(); await sleep(1);', 'await c(); await a(); await sleep(1);', { files1: dynamic, files2: dynamic })).toBe('unprovable');
    }
  });
});
