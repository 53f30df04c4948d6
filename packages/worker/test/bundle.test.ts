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
    // The inline source map maps lines to the original files without carrying a copy of their text.
    const inline = /\/\/# sourceMappingURL=data:application\/json;charset=utf-8;base64,(\S+)\s*$/.exec(bundle.code);
    const map = JSON.parse(Buffer.from(inline![1]!, 'base64').toString()) as { sources: string[]; mappings: string; sourcesContent?: unknown };
    expect(map.sources.some((s) => s.endsWith('/onboard/workflow.js'))).toBe(true);
    expect(map.mappings.length).toBeGreaterThan(0);
    expect(map).not.toHaveProperty('sourcesContent');
  }, 120_000);
});
