import { readFileSync } from 'node:fs';
import nodeModule from 'node:module';
import { describe, expect, it } from 'vitest';
import { moduleHooks, REQUIRED_NODE } from '../src/host/typescript/resolve-hook.js';

describe('moduleHooks', () => {
  it("names the package's own engines.node", () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
    expect(REQUIRED_NODE).toBe(manifest.engines.node);
  });

  it("is Node's module.registerHooks where this Node has it", () => {
    expect(moduleHooks('a test')).toBe(nodeModule.registerHooks);
  });

  it('names the Node version it needs, and the one running, where this Node lacks it', () => {
    const registerHooks = nodeModule.registerHooks;
    // As on Node 20: the property is absent (a named import of it fails while the modules link).
    delete (nodeModule as Partial<typeof nodeModule>).registerHooks;
    try {
      expect(() => moduleHooks("running a project's .ts files")).toThrow(
        `Skein's worker needs Node ${REQUIRED_NODE} for running a project's .ts files (module.registerHooks); this process runs Node ${process.versions.node}`,
      );
    } finally {
      nodeModule.registerHooks = registerHooks;
    }
  });
});
