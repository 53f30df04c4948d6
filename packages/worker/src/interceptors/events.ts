import { randomUUID } from 'node:crypto';
import { type ActivityDetails, type OutputActivityKind, type SerializedError, type WorkflowDetails, type Aggregations } from '@skein/core';
import { dispatchLifecycle, hasHooks, type TraceEvent } from '@skein/core/internal';
import { type TraceDestinations } from '@skein/names/traces';
import type { WorkerMetrics } from '../metrics/worker-metrics.js';
import type { TraceRecorder } from '../traces/recorder.js';

const base = () => ({ eventId: randomUUID(), eventDate: Date.now() });

/**
 * The worker's single sink for lifecycle facts: turns each into the hook payloads (including `onError`), feeds the
 * trace recorder (run ends, failed activity attempts) and counts activity outcomes (when metrics are on). Nothing
 * here throws into workflow or activity code.
 */
export class WorkerEvents {
  /** Activity attempts started and not yet ended (logged when the worker is asked to stop). */
  activitiesRunning = 0;

  constructor(
    private readonly traces: TraceRecorder | undefined,
    private readonly report: (err: unknown) => void,
    private readonly metrics?: WorkerMetrics,
  ) {}

  private trace(p: Promise<void> | undefined): void {
    p?.catch(this.report);
  }

  workflowStarted(details: WorkflowDetails, input: unknown): void {
    if (hasHooks('onWorkflowStart')) void dispatchLifecycle('onWorkflowStart', { ...base(), workflowDetails: details, input });
  }

  /** `trace`: the trace destinations the run's memo names. */
  workflowCompleted(details: WorkflowDetails, output: unknown, trace: TraceDestinations = {}): void {
    if (hasHooks('onWorkflowEnd')) void dispatchLifecycle('onWorkflowEnd', { ...base(), workflowDetails: details, output });
    this.trace(this.traces?.workflowFinished(details, { output }, trace));
  }

  /** `trace`: the trace destinations the run's memo names. */
  workflowFailed(details: WorkflowDetails, error: SerializedError, trace: TraceDestinations = {}): void {
    void dispatchLifecycle('onWorkflowError', { ...base(), workflowDetails: details, error });
    void dispatchLifecycle('onError', { ...base(), source: 'workflow', workflowDetails: details, error });
    this.trace(this.traces?.workflowFinished(details, { error }, trace));
  }

  /**
   * The run continued as new: its trace is written like any closed run's (the next run is a root run of its own);
   * no lifecycle hook runs, since the execution goes on. `trace`: the trace destinations the run's memo names.
   */
  workflowContinuedAsNew(details: WorkflowDetails, trace: TraceDestinations = {}): void {
    this.trace(this.traces?.workflowFinished(details, { output: null }, trace));
  }

  activityStarted(details: WorkflowDetails, info: ActivityDetails, kind: OutputActivityKind, input: unknown): void {
    this.activitiesRunning++;
    if (hasHooks('onActivityStart')) {
      void dispatchLifecycle('onActivityStart', { ...base(), workflowDetails: details, activityInfo: info, outputActivityKind: kind, input });
    }
  }

  activityCompleted(details: WorkflowDetails, info: ActivityDetails, kind: OutputActivityKind, output: unknown, aggregations: Aggregations): void {
    this.activitiesRunning--;
    this.metrics?.activityOutcome(info.activityType, kind, 'completed');
    if (hasHooks('onActivityEnd')) {
      void dispatchLifecycle('onActivityEnd', { ...base(), workflowDetails: details, activityInfo: info, outputActivityKind: kind, output, aggregations });
    }
  }

  activityFailed(details: WorkflowDetails, info: ActivityDetails, kind: OutputActivityKind, error: SerializedError, aggregations: Aggregations): void {
    this.activitiesRunning--;
    this.metrics?.activityOutcome(info.activityType, kind, 'failed');
    void dispatchLifecycle('onActivityError', { ...base(), workflowDetails: details, activityInfo: info, outputActivityKind: kind, error, aggregations });
    void dispatchLifecycle('onError', { ...base(), source: 'activity', workflowDetails: details, activityInfo: info, outputActivityKind: kind, error });
    this.traces?.activityFailed(details, info.activityId, info.attempt, error);
  }

  /** An activity attempt added `Tracing` events (filed in its trace node). */
  activityTraceEvents(details: WorkflowDetails, info: ActivityDetails, events: TraceEvent[]): void {
    this.traces?.activityEvents(details, info.activityId, events);
  }

  runtimeError(error: SerializedError): void {
    void dispatchLifecycle('onError', { ...base(), source: 'runtime', error });
  }
}
