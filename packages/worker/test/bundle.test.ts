import { describe, expect, it } from 'vitest';
import { bundleWorkflows } from '../src/bundle/bundle.js';
import { loadProject } from '../src/host/load.js';
import { examplesManifest } from './manifest-helpers.js';

describe('bundleWorkflows', () => {
  it('bundles workflow code with steps replaced by activity stubs and core resolved to its workflow entry', async () => {
    const bundle = await bundleWorkflows(await loadProject(examplesManifest()), { cacheDir: false });
    // The steps' bodies never reach the sandbox; their stubs do.
    expect(bundle.code).toMatch(/activityStub\)?\(\{"name":"countWords","kind":"step"\}\)/);
    expect(bundle.code).toMatch(/activityStub\)?\(\{"name":"normalizeEmail","kind":"step","activityOptions":\{"retry":\{"maximumAttempts":1\}\}\}\)/);
    expect(bundle.code).not.toContain('STOP_WORDS');
    expect(bundle.code).not.toContain('FREE_MAIL');
    expect(bundle.code).toContain('catalogWorkflow');
  }, 120_000);
});
