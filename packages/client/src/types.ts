/**
 * Named types of the API's bodies, taken from the generated OpenAPI types (`generated/openapi.ts`, rebuilt by
 * `npm run generate:client` from the same zod schemas the API validates with).
 */
import type { components, operations } from './generated/openapi.js';

type Schemas = components['schemas'];

/** Per-call options. */
export interface CallOptions {
  /** Aborts the request; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
}

export type RunRequest = Schemas['RunRequest'];
export type StartRequest = Schemas['StartRequest'];
export type RunResponse = Schemas['RunResponse'];
export type ResultResponse = Schemas['ResultResponse'];
export type InputResponse = Schemas['InputResponse'];
export type StatusResponse = Schemas['StatusResponse'];
export type ExecutionRef = Schemas['ExecutionRef'];
export type RunsResponse = Schemas['RunsResponse'];
/** One row of `GET /workflow/runs`. */
export type RunSummary = RunsResponse['runs'][number];
export type RunStatus = Schemas['RunStatus'];
export type HistoryPage = Schemas['HistoryPage'];
export type HistoryEvent = Schemas['HistoryEvent'];
export type WorkflowMeta = Schemas['WorkflowMeta'];
export type CatalogResponse = Schemas['CatalogResponse'];
/** One workflow of a catalog document. */
export type CatalogWorkflow = CatalogResponse['workflows'][number];
export type TraceLogResponse = Schemas['TraceLogResponse'];
export type ErrorResponse = Schemas['ErrorResponse'];
export type ValidationErrorResponse = Schemas['ValidationErrorResponse'];
export type ReadyResponse = Schemas['ReadyResponse'];
export type CreateScheduleRequest = Schemas['CreateScheduleRequest'];
export type UpdateScheduleRequest = Schemas['UpdateScheduleRequest'];
export type ScheduleSpec = Schemas['ScheduleSpec'];
export type ScheduleRef = Schemas['ScheduleRef'];
export type ScheduleList = Schemas['ScheduleList'];
export type ScheduleSummary = Schemas['ScheduleSummary'];
export type ScheduleDescription = Schemas['ScheduleDescription'];
export type SchedulePausedState = Schemas['SchedulePausedState'];
export type BackfillRequest = Schemas['BackfillRequest'];
export type TriggerRequest = Schemas['TriggerRequest'];
/** `POST /workflow/batch` body. */
export type BatchRequest = Schemas['BatchRequest'];
/** A dry run's answer: what a batch would reach. */
export type BatchCount = Schemas['BatchCount'];
/** A started batch's id and what it reached. */
export type BatchStarted = Schemas['BatchStarted'];
/** A batch operation's progress. */
export type Batch = Schemas['Batch'];
/** One page of `GET /workflow/batch`. */
export type BatchList = Schemas['BatchList'];

/** Query parameters of the paged history routes. */
export type HistoryQuery = NonNullable<operations['getRunHistory']['parameters']['query']>;
/** Query parameters of `GET /workflow/runs`. */
export type RunsQuery = NonNullable<operations['listRuns']['parameters']['query']>;

/** `event: done` of the history stream: the run closed with `status`. */
export interface HistoryStreamDone {
  workflowId: string;
  runId: string;
  status: RunStatus;
}
