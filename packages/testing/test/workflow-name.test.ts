import { describe, expect, it } from 'vitest';
import { step, workflow, z } from '@skein/core';
import { workflowName } from '../src/index.js';

describe('workflowName', () => {
  it("answers a definition's registered name, or the name given", () => {
    const greet = workflow({ name: 'greet', inputSchema: z.object({ name: z.string().default('world') }), fn: async ({ name }) => name });
    expect(workflowName(greet)).toBe('greet');
    expect(workflowName('by-name')).toBe('by-name');
  });

  it('refuses what is not a workflow, such as a step', () => {
    const s = step({ name: 'noop', fn: async () => null });
    // A step carries a definition too, with a name: only workflows are accepted.
    expect(() => workflowName(s as never)).toThrow(/not a workflow/);
    expect(() => workflowName((() => null) as never)).toThrow(/not a workflow/);
  });
});
