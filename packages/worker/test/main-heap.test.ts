import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const source = fileURLToPath(new URL('../src/host/main-heap.ts', import.meta.url));
/** A process that keeps a third of a stream of objects alive for a while (as a worker does), holds its young generation half way, then reports it (MB). */
const script = `
import v8 from 'node:v8';
import { holdYoungGeneration } from ${JSON.stringify(source)};
const keep = [];
const churn = () => { for (let i = 0; i < 3e6; i++) { const o = { i, s: 'x' + i }; if (i % 3 === 0) keep.push(o); if (keep.length > 2e5) keep.splice(0, 1e5); } };
churn();
const held = process.argv[1] === 'hold' ? holdYoungGeneration(process.execArgv) : false;
churn();
const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 2 ** 20;
const vm = await import('node:vm');
console.log(JSON.stringify({ held, young, gcLeft: vm.runInNewContext('typeof gc') }));
`;
const run = (mode: string, flags: string[] = []) =>
  JSON.parse(execFileSync(process.execPath, [...flags, '--input-type=module', '-e', script, mode], { encoding: 'utf8' })) as {
    held: boolean;
    young: number;
    gcLeft: string;
  };

describe('holdYoungGeneration', () => {
  it("shrinks a grown young generation to its starting size and keeps it there, unless the process's own flags size it", () => {
    const free = run('free');
    const held = run('hold');
    const own = run('hold', ['--semi-space-growth-factor=2']);
    // V8 grows it (to 2 x 64 MB on a machine with 16 GB or more) under this load.
    expect(free.young).toBeGreaterThan(4);
    expect(held).toEqual({ held: true, young: expect.any(Number) as number, gcLeft: 'undefined' });
    expect(held.young).toBeLessThanOrEqual(2);
    expect(own.held).toBe(false);
    expect(own.young).toBe(free.young);
  });
});
