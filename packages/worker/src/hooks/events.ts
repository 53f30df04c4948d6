import { randomUUID } from 'node:crypto';
import {
  dispatchLifecycle,
  hasHooks,
  type ActivityDetails,
  type OutputActivityKind,
  type SerializedError,
  type WorkflowDetails,
  type Aggregations,
} from '@skein/core';
import type { TraceRecorder } from '../traces/recorder.js';

const base = () => ({ eventId: randomUUID(), eventDate: Date.now() });

/**
 * The worker's single sink for lifecycle facts: turns each into the hook payloads (README, "Hooks"; including
 * `onError`) and feeds the trace recorder. Nothing here throws into workflow or activity code.
 */
export class WorkerEvents {
  constructor(
    private readonly traces: TraceRecorder | undefined,
    private readonly report: (err: unknown) => void,
  ) {}

  private trace(p: Promise<void> | undefined): void {
    p?.catch(this.report);
  }

  workflowStarted(details: WorkflowDetails, input: unknown): void {
    if (hasHooks('onWorkflowStart')) void dispatchLifecycle('onWorkflowStart', { ...base(), workflowDetails: details, input });
    this.trace(this.traces?.workflowStarted(details, input));
  }

  workflowCompleted(details: WorkflowDetails, output: unknown): void {
    if (hasHooks('onWorkflowEnd')) void dispatchLifecycle('onWorkflowEnd', { ...base(), workflowDetails: details, output });
    this.trace(this.traces?.workflowFinished(details, { output }));
  }

  workflowFailed(details: WorkflowDetails, error: SerializedError): void {
    void dispatchLifecycle('onWorkflowError', { ...base(), workflowDetails: details, error });
    void dispatchLifecycle('onError', { ...base(), source: 'workflow', workflowDetails: details, error });
    this.trace(this.traces?.workflowFinished(details, { error }));
  }

  activityStarted(details: WorkflowDetails, info: ActivityDetails, kind: OutputActivityKind, input: unknown): void {
    if (hasHooks('onActivityStart')) {
      void dispatchLifecycle('onActivityStart', { ...base(), workflowDetails: details, activityInfo: info, outputActivityKind: kind, input });
    }
    this.trace(this.traces?.activityStarted(details, info, kind, input));
  }

  activityCompleted(details: WorkflowDetails, info: ActivityDetails, kind: OutputActivityKind, output: unknown, aggregations: Aggregations): void {
    if (hasHooks('onActivityEnd')) {
      void dispatchLifecycle('onActivityEnd', { ...base(), workflowDetails: details, activityInfo: info, outputActivityKind: kind, output, aggregations });
    }
    this.trace(this.traces?.activityFinished(details, info, { output }));
  }

  activityFailed(details: WorkflowDetails, info: ActivityDetails, kind: OutputActivityKind, error: SerializedError, aggregations: Aggregations): void {
    void dispatchLifecycle('onActivityError', { ...base(), workflowDetails: details, activityInfo: info, outputActivityKind: kind, error, aggregations });
    void dispatchLifecycle('onError', { ...base(), source: 'activity', workflowDetails: details, activityInfo: info, outputActivityKind: kind, error });
    this.trace(this.traces?.activityFinished(details, info, { error }));
  }

  runtimeError(error: SerializedError): void {
    void dispatchLifecycle('onError', { ...base(), source: 'runtime', error });
  }
}
