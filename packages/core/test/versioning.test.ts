import { describe, expect, it } from 'vitest';
import { DefinitionError, definitionOf, deprecatePatch, patched, workflow } from '../src/index.js';

describe('versioning in the authoring API', () => {
  it('keeps versioningBehavior on the definition', () => {
    const wf = workflow({ name: 'approval', versioningBehavior: 'auto-upgrade', fn: async () => 'ok' });
    expect(definitionOf(wf)).toMatchObject({ kind: 'workflow', versioningBehavior: 'auto-upgrade' });
    expect(definitionOf(workflow({ name: 'plain', fn: async () => 1 }))).not.toHaveProperty('versioningBehavior');
  });

  it('refuses an unknown versioning behaviour, naming the field', () => {
    expect(() => workflow({ name: 'bad', versioningBehavior: 'latest' as never, fn: async () => 1 })).toThrow(DefinitionError);
    expect(() => workflow({ name: 'bad', versioningBehavior: 'latest' as never, fn: async () => 1 })).toThrow(/versioningBehavior/);
  });

  it('runs the newest code path in a local run: patched() is true, deprecatePatch() does nothing', async () => {
    const wf = workflow({
      name: 'patchedLocally',
      fn: async () => {
        deprecatePatch('old-change');
        return patched('add-review') ? 'new' : 'old';
      },
    });
    await expect(wf()).resolves.toBe('new');
  });
});
