/**
 * Workflow interceptor module the worker bundles (`workflowInterceptorModules`): every activity scheduled by a
 * Skein workflow carries the workflow's `workflowDetails` in a header, so activity hooks and traces know the
 * parent and root of the run that scheduled them.
 */
import { defaultPayloadConverter, workflowInfo, type WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { WORKFLOW_DETAILS_HEADER, workflowDetailsFrom } from '../hooks/details.js';

export const interceptors: WorkflowInterceptorsFactory = () => ({
  outbound: [
    {
      async scheduleActivity(input, next) {
        const details = defaultPayloadConverter.toPayload(workflowDetailsFrom(workflowInfo()));
        return next({ ...input, headers: { ...input.headers, [WORKFLOW_DETAILS_HEADER]: details } });
      },
    },
  ],
});
