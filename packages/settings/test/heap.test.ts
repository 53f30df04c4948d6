import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { holdYoungGeneration } from '../src/heap.js';

const source = fileURLToPath(new URL('../src/heap.ts', import.meta.url));
/**
 * A process that keeps a third of a stream of objects alive for a while (as a worker does), holds its young generation
 * half way, then reports its size (MB) right after the hold and after as much load again.
 */
const script = `
import v8 from 'node:v8';
import { holdYoungGeneration } from ${JSON.stringify(source)};
const keep = [];
const churn = () => { for (let i = 0; i < 3e6; i++) { const o = { i, s: 'x' + i }; if (i % 3 === 0) keep.push(o); if (keep.length > 2e5) keep.splice(0, 1e5); } };
churn();
const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 2 ** 20;
const held = process.argv[1] === 'hold' ? holdYoungGeneration(process.execArgv) : false;
const shrunk = newSpace();
churn();
const young = newSpace();
const vm = await import('node:vm');
console.log(JSON.stringify({ held, shrunk, young, gcLeft: vm.runInNewContext('typeof gc') }));
`;
const run = (mode: string, flags: string[] = []) =>
  JSON.parse(execFileSync(process.execPath, [...flags, '--input-type=module', '-e', script, mode], { encoding: 'utf8' })) as {
    held: boolean;
    shrunk: number;
    young: number;
    gcLeft: string;
  };

describe('holdYoungGeneration in a process of its own', () => {
  it("shrinks a grown young generation to its starting size and keeps it there, unless the process's own flags size it", () => {
    const free = run('free');
    const held = run('hold');
    const own = run('hold', ['--semi-space-growth-factor=2']);
    // V8 grows it (to 2 x 64 MB on a machine with 16 GB or more) under this load.
    expect(free.young).toBeGreaterThanOrEqual(64);
    expect(held).toMatchObject({ held: true, gcLeft: 'undefined' });
    // The memory-reducing collection shrinks it to near its starting size (1 to 4 MB here, by what is still live in
    // it when the collection runs) and it stays near it under the same load again, a sixteenth of what it grew to.
    expect(held.shrunk).toBeLessThanOrEqual(8);
    expect(held.young).toBeLessThanOrEqual(8);
    expect(own.held).toBe(false);
    expect(own.young).toBe(free.young);
  });
});

describe('holdYoungGeneration in this process', () => {
  it('leaves the young generation alone when the process sets its own semi-space flags', () => {
    expect(holdYoungGeneration(['--max-semi-space-size=8'])).toBe(false);
    expect(holdYoungGeneration(['--semi_space_growth_factor=2'])).toBe(false);
    expect(holdYoungGeneration(['--min-semi-space-size=1'])).toBe(false);
  });

  it('otherwise holds it, shrinking what had grown, and the process keeps working', () => {
    // Short-lived objects that survive a scavenge or two grow the young generation first.
    const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size;
    let batch: Array<{ i: number }> = [];
    for (let i = 0; i < 2_000_000; i++) {
      batch.push({ i });
      if (batch.length > 100_000) batch = [];
    }
    expect(newSpace()).toBeGreaterThan(16 * 1024 * 1024);
    expect(holdYoungGeneration(['--expose-gc'])).toBe(true);
    // After the memory-reducing collection the young generation is back near its starting size, and stays there.
    expect(newSpace()).toBeLessThanOrEqual(16 * 1024 * 1024);
    for (let i = 0; i < 2_000_000; i++) {
      batch.push({ i });
      if (batch.length > 100_000) batch = [];
    }
    expect(newSpace()).toBeLessThanOrEqual(16 * 1024 * 1024);
  });
});

describe('reduceHeap in a process of its own', () => {
  it('returns the heap a burst of garbage committed, which a plain full collection keeps, and leaves no gc global', () => {
    const burst = `
import v8 from 'node:v8';
import vm from 'node:vm';
import { reduceHeap } from ${JSON.stringify(source)};
const committed = () => Math.round(v8.getHeapStatistics().total_heap_size / 2 ** 20);
// Old-generation garbage: 200 MB of objects kept for a while, then dropped (what a build's imports leave behind).
let kept = [];
for (let i = 0; i < 2e6; i++) kept.push({ i, s: 'x'.repeat(40) + i });
kept = null;
const before = committed();
v8.setFlagsFromString('--expose-gc');
const plainGc = vm.runInNewContext('gc');
v8.setFlagsFromString('--no-expose-gc');
plainGc({ type: 'major', execution: 'sync' });
const afterPlain = committed();
const ran = reduceHeap();
console.log(JSON.stringify({ before, afterPlain, ran, after: committed(), gcLeft: vm.runInNewContext('typeof gc') }));
`;
    const { before, afterPlain, ran, after, gcLeft } = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', burst], { encoding: 'utf8' }),
    ) as Record<string, number | boolean | string>;
    expect(ran).toBe(true);
    expect(gcLeft).toBe('undefined');
    expect(before).toBeGreaterThan(100);
    expect(after as number).toBeLessThan((afterPlain as number) / 2);
  });
});
