import { workflow, z } from '@skein/core';
import { processPage } from './steps.js';

const PAGE_SIZE = 3;

/**
 * Works through a long list one page per run: after each page it continues as new with the rest, so the
 * history of any one run stays short. `POST /workflow/run` follows the chain and answers the last run's output.
 */
export default workflow({
  name: 'pager',
  description: 'Processes a list of ids page by page, continuing as new after each page.',
  inputSchema: z.object({ ids: z.array(z.string()), processed: z.number().int().min(0).default(0), runs: z.number().int().min(1).default(1) }),
  fn: async ({ ids, processed, runs }, context) => {
    const done = processed + (await processPage(ids.slice(0, PAGE_SIZE)));
    const rest = ids.slice(PAGE_SIZE);
    if (rest.length > 0) return context.control.continueAsNew({ ids: rest, processed: done, runs: runs + 1 });
    return { processed: done, runs, lastRunId: context.info.runId };
  },
});
