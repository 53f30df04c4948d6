import path from 'node:path';
import type { ActivityEntry, Manifest, WorkflowEntry } from '@skein/discovery';

const root = path.resolve(import.meta.dirname, '../../../examples');
const pkgRoot = path.resolve(import.meta.dirname, '../../../fixtures/packages/skein-greetings');

function act(file: string, name: string, kind: 'step' | 'evaluator', shared = false): ActivityEntry {
  return { name, exportName: name, kind, shared, file, line: 1, column: 1 };
}

function wf(name: string, file: string, activities: ActivityEntry[], pkg: WorkflowEntry['package'] = null): WorkflowEntry {
  return { name, aliases: [], file, line: 1, column: 1, package: pkg, exportName: 'default', activities, activityTypes: [] };
}

/** The manifest discovery produces for `examples/`, written out by hand for tests of the worker alone. */
export function examplesManifest(): Manifest {
  const pkg = { name: '@skein-fixtures/greetings', version: '1.0.0', root: pkgRoot };
  return {
    root,
    packages: [pkg],
    filesRead: 0,
    diagnostics: [],
    workflows: [
      wf('onboard', `${root}/onboard/workflow.js`, [
        act(`${root}/onboard/steps.js`, 'normalizeEmail', 'step'),
        act(`${root}/onboard/evaluators.js`, 'scoreLead', 'evaluator'),
      ]),
      wf('summarize', `${root}/summarize/workflow.js`, [
        act(`${root}/summarize/steps.js`, 'countWords', 'step'),
        act(`${root}/summarize/steps.js`, 'extractKeywords', 'step'),
        act(`${root}/summarize/evaluators.js`, 'judgeReadability', 'evaluator'),
      ]),
      { ...wf('welcome', `${pkgRoot}/welcome/workflow.js`, [act(`${pkgRoot}/welcome/steps.js`, 'composeWelcome', 'step')], pkg), exportName: 'welcome' },
    ],
    sharedActivities: [
      { ...act(`${root}/shared/steps/slugify.js`, 'slugify', 'step', true), shared: true, package: null },
      { ...act(`${pkgRoot}/shared/steps/title-case.js`, 'titleCase', 'step', true), shared: true, package: pkg },
    ],
  };
}
