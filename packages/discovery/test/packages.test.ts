import { afterEach, describe, expect, it } from 'vitest';
import { discover } from '../src/index.js';
import { briefs, discoverFixture, fixture, workflowSummary } from './helpers.js';
import { EXPOSE, packageJson, tempProject, workflowJs } from './tmp.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('which packages (package rule 4)', () => {
  it('searches the project node_modules, then ancestors (hoisted), with scoped packages; the nearest install of a name wins', async () => {
    const m = await discover(`${fixture('hoisted')}/app`, { ceiling: fixture('hoisted') });
    expect(m.diagnostics).toEqual([]);
    expect(workflowSummary(m)).toEqual([
      'far <- @scope/far:far (../node_modules/@scope/far/f/workflow.js)',
      'near_v2 <- near:near (node_modules/near/n/workflow.js)',
    ]);
    expect(m.packages.map((p) => `${p.name}@${p.version}`)).toEqual(['@scope/far@1.0.0', 'near@2.0.0']);
  });

  it('does not look above the ceiling', async () => {
    const app = `${fixture('hoisted')}/app`;
    const m = await discover(app, { ceiling: app });
    expect(m.packages.map((p) => p.name)).toEqual(['near']);
  });

  it('de-duplicates workspace symlinks by real path, skips the project itself, and does not count exposed workspace packages as local', async () => {
    const t = tempProject(
      {
        'package.json': packageJson('ws-project', { workspaces: ['packages/*'] }),
        'app/workflow.js': workflowJs('app'),
        'packages/flows/package.json': packageJson('flows', EXPOSE),
        'packages/flows/index.js': "export { default as hello } from './hello/workflow.js';\n",
        'packages/flows/hello/workflow.js': workflowJs('hello'),
        'packages/flows/hello/steps.js': "import { step } from '@skein/core';\nexport const s = step({ name: 's', fn: async (x) => x });\n",
      },
      { 'node_modules/flows': '../packages/flows', 'node_modules/@alias/flows': '../../packages/flows', 'node_modules/ws-project': '..' },
    );
    cleanups.push(t.cleanup);
    const m = await discover(t.root, { ceiling: t.root });
    expect(m.diagnostics).toEqual([]);
    expect(m.packages).toEqual([{ name: 'flows', version: '1.0.0', root: `${t.root}/packages/flows` }]);
    expect(workflowSummary(m)).toEqual(['app <- (local):default (app/workflow.js)', 'hello <- flows:hello (packages/flows/hello/workflow.js)']);
    expect(m.workflows[1]!.activities.map((a) => a.file)).toEqual([`${t.root}/packages/flows/hello/steps.js`]);
  });

  it('warns when workflow code imports a workflow from a package without the flag (default, named, subpath), naming the package and the fix', async () => {
    const m = await discoverFixture('unflagged-package');
    expect(briefs(m)).toEqual([
      'package/no-expose-flag caller/workflow.js:2:10',
      'package/no-expose-flag caller/workflow.js:3:8',
      'package/no-expose-flag caller/workflow.js:4:10',
      'package/invalid-expose-flag node_modules/string-flag/package.json:7:7',
    ]);
    const [named, subpath, stringFlag, invalid] = m.diagnostics;
    expect(named!.message).toBe(
      `'greet' imported from 'unflagged' is a workflow, but unflagged does not set "skein": { "workflows": { "expose": true } }, so it is not registered and calling it fails at runtime with "workflow does not exist".`,
    );
    expect(named!.hint).toBe(`Add "skein": { "workflows": { "expose": true } } to ${m.root}/node_modules/unflagged/package.json.`);
    expect(named!.severity).toBe('warning');
    expect(subpath!.message).toContain(`'wave' (the default export of 'unflagged/wave')`);
    expect(stringFlag!.message).toContain('sets "skein.workflows.expose" to something other than the boolean true');
    expect(invalid!.message).toBe('string-flag sets "skein.workflows.expose" to "true", not the boolean true; its workflows are not discovered.');
    // `helper` is not a workflow; `flagged` is exposed and registered.
    expect(workflowSummary(m)).toEqual([
      'caller <- (local):default (caller/workflow.js)',
      'exposed_one <- flagged:exposedOne (node_modules/flagged/one/workflow.js)',
    ]);
    expect(m.packages.map((p) => p.name)).toEqual(['flagged']);
  });

  it('warns when a package imports a workflow from an exposed package installed in its own node_modules, which is not served', async () => {
    const m = await discoverFixture('nested-install');
    expect(briefs(m)).toEqual([
      'package/nested-install node_modules/lonely/l/workflow.js:3:10',
      'package/nested-install node_modules/parent/p/workflow.js:3:10',
    ]);
    const [unserved, shadowed] = m.diagnostics;
    expect(unserved!.message).toBe(
      `'onlyNested' imported from 'only-nested' is a workflow of only-nested 1.0.0, installed at ${m.root}/node_modules/lonely/node_modules/only-nested for this package alone: discovery serves only the packages the project itself resolves, so it is not registered and the child workflow never starts.`,
    );
    expect(unserved!.hint).toBe(
      'Install only-nested in the project (npm install only-nested@1.0.0), at a version this package accepts, so that one install serves both.',
    );
    expect(shadowed!.message).toContain(`discovery serves the project's shared-flows 1.0.0 instead, so the child workflow runs that version's code.`);
    expect(shadowed!.severity).toBe('warning');
    // The project's own installs are served, nested ones are not.
    expect(workflowSummary(m)).toEqual([
      'lonely_flow <- lonely:lonelyFlow (node_modules/lonely/l/workflow.js)',
      'parent_flow <- parent:parentFlow (node_modules/parent/p/workflow.js)',
      'shared_flow <- shared-flows:sharedFlow (node_modules/shared-flows/s/workflow.js)',
    ]);
  });

  it('reports namespace imports and dynamic import() of a workflow package or workflow file in workflow code, not of other modules', async () => {
    const m = await discoverFixture('imports-namespace');
    expect(briefs(m)).toEqual([
      'imports/namespace main/workflow.js:2:8',
      'imports/namespace main/workflow.js:3:8',
      'imports/dynamic main/workflow.js:9:41',
      'imports/dynamic main/workflow.js:10:31',
    ]);
    expect(m.diagnostics.map((d) => d.severity)).toEqual(['error', 'error', 'error', 'error']);
    expect(m.diagnostics[2]!.message).toBe("import('greetings') loads workflow code dynamically; the workflows it calls cannot be known statically.");
    expect(m.diagnostics[0]!.hint).toBe("Import each workflow by name: import { greet } from 'greetings'.");
  });
});
