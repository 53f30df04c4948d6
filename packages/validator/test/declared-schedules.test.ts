/** `workflow/declared-schedules`: the schedules a workflow declares are read statically and checked as the API checks them. */
import { describe, expect, it } from 'vitest';
import { rule } from '../src/rules/workflow/declared-schedules.js';
import { lint, positions } from '../src/testing.js';

const wf = (schedules: string) =>
  `import { workflow } from '@skein/core';\nexport default workflow({\n  name: 'report',\n  schedules: ${schedules},\n  fn: async () => 1,\n});\n`;

describe('workflow/declared-schedules', () => {
  it.each([
    ['a 5-field cron', "[{ id: 'nightly', cron: '0 2 * * *', input: { full: true } }]"],
    ['several cron entries in a time zone', "[{ id: 'twice', cron: ['0 9 * * MON-FRI', '@daily'], timezone: 'Europe/Paris' }]"],
    ['an interval', "[{ id: 'often', every: '30s' }]"],
    ['@every and a template literal', '[{ id: `tick`, cron: `@every 90s` }]'],
    ['two schedules with their own ids', "[{ id: 'a', every: '1h' }, { id: 'b', cron: '@hourly' }]"],
  ])('accepts %s', (_what, schedules) => {
    expect(positions(rule, wf(schedules))).toEqual([]);
  });

  it.each([
    ['a cron of 6 fields', "[{ id: 'x', cron: '0 0 2 * * *' }]", ['invalidTimes@4:32']],
    ['a cron value out of range', "[{ id: 'x', cron: ['@daily', '61 * * * *'] }]", ['invalidTimes@4:43']],
    ['an unknown predefined form', "[{ id: 'x', cron: '@sometimes' }]", ['invalidTimes@4:32']],
    ['an interval below 1 s', "[{ id: 'x', every: '500ms' }]", ['invalidTimes@4:33']],
    ['@every below 1 s', "[{ id: 'x', cron: '@every 10ms' }]", ['invalidTimes@4:32']],
    ['an unknown time zone', "[{ id: 'x', every: '1h', timezone: 'Mars/Olympus' }]", ['invalidTimes@4:49']],
    ['neither cron nor every', "[{ id: 'x', input: 1 }]", ['invalidTimes@4:15']],
    ['a computed cron', "[{ id: 'x', cron: CRON }]", ['notStatic@4:32']],
    ['a computed id', "[{ id: ID, every: '1h' }]", ['notStatic@4:21']],
    ['a list built in code', 'makeSchedules()', ['notStatic@4:14']],
    ['an id with spaces', "[{ id: 'every night', every: '1h' }]", ['invalidId@4:21']],
    ['a duplicate id', "[{ id: 'a', every: '1h' }, { id: 'a', every: '2h' }]", ['duplicateId@4:47']],
  ])('reports %s', (_what, schedules, expected) => {
    expect(positions(rule, wf(schedules))).toEqual(expected);
  });

  it('names the schedule and the problem', () => {
    const [finding] = lint(rule, wf("[{ id: 'nightly', cron: '0 25 * * *' }]"));
    expect(finding?.message).toMatch(/^Schedule `nightly`: Invalid cron expression "0 25 \* \* \*": .*got value 25 expected range 0-23/);
  });

  it('leaves other calls with a schedules property alone', () => {
    expect(positions(rule, "export const config = build({ name: 'x', schedules: [{ id: 'bad id', cron: 'nope' }] });\n")).toEqual([]);
  });
});
