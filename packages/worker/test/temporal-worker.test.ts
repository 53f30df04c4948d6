import { parseWorkflowCode } from '@temporalio/worker/lib/worker.js';
import { describe, expect, it } from 'vitest';
import { threadBundle } from '../src/host/temporal-worker.js';

const map = { version: 3, file: 'workflow-bundle-abc.js', sources: ['a.ts'], names: [], mappings: 'AAAA' };
const code = `globalThis.__webpack_module_cache__ = {};\nvar x = 1;\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}\n`;

describe('threadBundle', () => {
  it("hands the workflow thread the SDK's source map and file name, without the inline map in the code", () => {
    const sdk = parseWorkflowCode(code);
    const ours = threadBundle(code);
    expect(ours.filename).toBe(sdk.filename);
    expect(ours.sourceMap).toEqual(sdk.sourceMap);
    expect(ours.code).toBe('globalThis.__webpack_module_cache__ = {};\nvar x = 1;\n');
  });

  it('refuses a bundle without an inline source map', () => {
    expect(() => threadBundle('var x = 1;\n')).toThrow('the workflow bundle has no inline source map');
  });
});
