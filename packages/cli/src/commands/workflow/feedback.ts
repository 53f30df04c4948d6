/** `skein workflow feedback`: the API half of a webhook wait (`POST /workflow/{id}/feedback`). */
import type { Command } from 'commander';
import { action, clientFrom, parseJson, UsageError, withClientOptions, type ClientFlags } from '../../client/common.js';
import { out, outJson, paint } from '../../client/output.js';

interface FeedbackFlags extends ClientFlags {
  payload?: string;
}

/** Registers `feedback` on the `workflow` command. */
export function registerFeedbackCommand(workflow: Command): void {
  withClientOptions(
    workflow
      .command('feedback')
      .argument('<workflowId>', 'the workflow execution id (its latest run receives the feedback)')
      .option('--payload <json>', 'what the waiting sendPostRequestAndAwaitWebhook call answers, as a JSON object'),
  )
    .description('resume a run waiting in sendPostRequestAndAwaitWebhook (sends it the resume signal)')
    .action(
      action(async (workflowId: string, flags: FeedbackFlags) => {
        const payload = flags.payload === undefined ? undefined : parseJson(flags.payload, '--payload');
        if (payload !== undefined && (payload === null || typeof payload !== 'object' || Array.isArray(payload))) {
          throw new UsageError('--payload of feedback must be a JSON object');
        }
        const r = await clientFrom(flags).feedback(workflowId, payload as Record<string, unknown> | undefined);
        if (flags.json) outJson(r);
        else out(`feedback sent  ${paint('dim', `${r.workflowId}  run ${r.runId}`)}\n`);
      }),
    );
}
