import { FatalError, executeInParallel, hasErrorType, workflow, z } from '@skein/core';
import { countWordsOf } from './steps.js';

/** Counts words of many texts, at most 3 steps at a time; a failed text is reported, not fatal to the run. */
export default workflow({
  name: 'fanout',
  description: 'Runs one step per text with executeInParallel (concurrency 3) and reports each outcome in order.',
  inputSchema: z.object({ texts: z.array(z.string()).min(1) }),
  fn: async ({ texts }) => {
    const results = await executeInParallel({ jobs: texts.map((text) => () => countWordsOf(text)), concurrency: 3 });
    return results.map((r, i) =>
      r.ok ? { text: texts[i], words: r.result } : { text: texts[i], error: hasErrorType(r.error, FatalError) ? 'FatalError' : 'failed' },
    );
  },
});
