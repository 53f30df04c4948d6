import { describe, expect, it } from 'vitest';
import { discoverFixture, rel, workflowSummary } from './helpers.js';

describe('discover: a valid project with one exposed package', () => {
  it('finds local and package workflows, their activities, shared activities and activity types', async () => {
    const m = await discoverFixture('basic');
    expect(m.diagnostics).toEqual([]);
    expect(workflowSummary(m)).toEqual([
      'hello <- (local):default (hello/workflow.js)',
      'farewell <- @acme/greetings:farewell (node_modules/@acme/greetings/farewell/workflow.js)',
      'greet <- @acme/greetings:greet (node_modules/@acme/greetings/greet/workflow.js)',
    ]);
    expect(m.packages).toEqual([{ name: '@acme/greetings', version: '2.3.4', root: `${m.root}/node_modules/@acme/greetings` }]);

    const hello = m.workflows[0]!;
    expect(hello).toMatchObject({ aliases: ['hi'], line: 5, column: 16, package: null, localExport: 'default' });
    expect(hello.activities.map((a) => [a.name, a.kind, a.shared, rel(m, a.file), a.line, a.column])).toEqual([
      ['shout', 'step', false, 'hello/steps/shout.js', 3, 22],
    ]);
    expect(hello.activityTypes).toEqual(['hello#format', 'hello#log', 'hello#score', 'hello#shout']);

    const farewell = m.workflows[1]!;
    expect(farewell.aliases).toEqual(['bye', 'goodbye']);
    expect(farewell.activities).toEqual([]);

    const greet = m.workflows[2]!;
    expect(greet.activities.map((a) => `${a.kind}:${a.name}:${a.exportName}:${rel(m, a.file)}`)).toEqual([
      'step:polish:polish:node_modules/@acme/greetings/greet/steps.js',
      'evaluator:tone:tone:node_modules/@acme/greetings/greet/evaluators/tone.js',
    ]);
    expect(greet.activityTypes).toEqual(['greet#format', 'greet#log', 'greet#polish', 'greet#score', 'greet#tone']);

    expect(m.sharedActivities.map((a) => `${a.package?.name ?? '(local)'} ${a.kind}:${a.name} ${rel(m, a.file)}:${a.line}:${a.column}`)).toEqual([
      '(local) step:log shared/steps/log.js:3:20',
      '@acme/greetings step:format node_modules/@acme/greetings/shared/steps/format.js:3:23',
      '@acme/greetings evaluator:score node_modules/@acme/greetings/shared/evaluators/score.js:3:22',
    ]);
    expect(m.filesRead).toBe(11);
  });

  it('is deterministic and JSON-serializable', async () => {
    const a = await discoverFixture('basic');
    const b = await discoverFixture('basic');
    expect(JSON.parse(JSON.stringify(a))).toEqual(b);
  });

  it('with localOnly, reads no packages', async () => {
    const m = await discoverFixture('basic', { localOnly: true });
    expect(workflowSummary(m)).toEqual(['hello <- (local):default (hello/workflow.js)']);
    expect(m.packages).toEqual([]);
    expect(m.workflows[0]!.activityTypes).toEqual(['hello#log', 'hello#shout']);
  });
});
