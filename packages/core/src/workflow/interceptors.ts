/**
 * Workflow interceptor module the worker bundles (`workflowInterceptorModules`): every activity scheduled by a
 * Skein workflow carries the workflow's `workflowDetails` in a header, so activity hooks and traces know the
 * parent and root of the run that scheduled them. An activity's failure reaches the workflow without the earlier
 * attempts' errors the worker may have carried in it for traces (`withoutAttemptErrors`).
 */
import { defaultPayloadConverter, workflowInfo, type WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { WORKFLOW_DETAILS_HEADER, workflowDetailsFrom } from '../hooks/details.js';
import { withoutAttemptErrors } from '../shared/attempt-errors.js';

export const interceptors: WorkflowInterceptorsFactory = () => ({
  outbound: [
    {
      async scheduleActivity(input, next) {
        const details = defaultPayloadConverter.toPayload(workflowDetailsFrom(workflowInfo()));
        try {
          return await next({ ...input, headers: { ...input.headers, [WORKFLOW_DETAILS_HEADER]: details } });
        } catch (err) {
          throw withoutAttemptErrors(err);
        }
      },
    },
  ],
});
