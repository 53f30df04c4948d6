/**
 * Declared schedules at load (each checked: times and input against the workflow's input schema) and as the sync
 * sends them to the engine (options of each declaration). The sync itself runs against a real engine in
 * test/deploy/declared-schedules.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { definitionOf, workflow, z, DefinitionError, type WorkflowDefinition } from '@skein/core';
import { declaredSchedules } from '../src/host/load.js';
import { declaredScheduleOptions } from '../src/deploy/schedules.js';
import { WorkerStartupError } from '../src/check/errors.js';

const defOf = (schedules: unknown) =>
  definitionOf(
    workflow({ name: 'report', inputSchema: z.object({ full: z.boolean() }), schedules: schedules as never, fn: async () => 1 }),
  ) as WorkflowDefinition;

describe('declared schedules at load', () => {
  it('reads each declaration, cron as a list and absent input as null', () => {
    const def = definitionOf(
      workflow({
        name: 'ping',
        schedules: [
          { id: 'a', cron: '@daily' },
          { id: 'b', every: '5m', timezone: 'UTC' },
        ],
        fn: async () => 1,
      }),
    );
    expect(declaredSchedules(def as WorkflowDefinition)).toEqual([
      { id: 'a', cron: ['@daily'], input: null },
      { id: 'b', every: '5m', timezone: 'UTC', input: null },
    ]);
  });

  it('refuses an input the schema refuses and invalid times, naming the workflow, the schedule and the field', () => {
    expect(() => declaredSchedules(defOf([{ id: 'nightly', cron: '0 2 * * *', input: { full: 'yes' } }]))).toThrow(WorkerStartupError);
    expect(() => declaredSchedules(defOf([{ id: 'nightly', cron: '0 2 * * *', input: { full: 'yes' } }]))).toThrow(
      /workflow "report", schedule "nightly": input\.full: /,
    );
    expect(() => declaredSchedules(defOf([{ id: 'n', cron: '0 2 * *', every: '10ms', timezone: 'Nowhere', input: { full: true } }]))).toThrow(
      /cron\.0: .*5 fields.*; every: .*at least 1s.*; timezone: Unknown time zone/,
    );
  });

  it('workflow() refuses malformed declarations', () => {
    expect(() => defOf([{ id: 'x' }])).toThrow(DefinitionError);
    expect(() =>
      defOf([
        { id: 'x', every: '1h' },
        { id: 'x', every: '2h' },
      ]),
    ).toThrow(/unique/);
    expect(() => defOf([{ id: 'a b', every: '1h' }])).toThrow(/letters, digits/);
    expect(() => defOf([{ id: 'x', every: '1h', overlap: 'skip' }])).toThrow(DefinitionError);
  });
});

describe('declaredScheduleOptions', () => {
  it('names each schedule <catalog>:<workflow>:<id>, marks it declared and starts the workflow on the catalog', () => {
    const [options] = declaredScheduleOptions({
      catalog: 'shop',
      workflows: [{ name: 'report', schedules: [{ id: 'nightly', cron: ['0 2 * * *', '@every 90s'], timezone: 'Europe/Paris', input: { full: true } }] }],
    });
    expect(options).toEqual({
      scheduleId: 'shop:report:nightly',
      spec: { cronExpressions: ['0 2 * * *'], intervals: [{ every: 90_000 }], timezone: 'Europe/Paris' },
      action: {
        type: 'startWorkflow',
        workflowType: 'report',
        taskQueue: 'shop',
        workflowId: 'shop:report:nightly',
        args: [{ full: true }],
        memo: { skeinScheduleTimes: { cron: ['0 2 * * *', '@every 90s'] } },
      },
      policies: { overlap: 'SKIP' },
      memo: { skeinDeclared: { catalog: 'shop', workflowName: 'report', id: 'nightly' } },
    });
  });
});
