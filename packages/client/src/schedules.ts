import type { Client as FetchClient } from 'openapi-fetch';
import type { paths } from './generated/openapi.js';
import type {
  BackfillRequest,
  CallOptions,
  CreateScheduleRequest,
  ScheduleDescription,
  ScheduleList,
  SchedulePausedState,
  ScheduleRef,
  TriggerRequest,
  UpdateScheduleRequest,
} from './types.js';

type Outcome<T> = { data?: T; error?: unknown; response: Response };
/** Runs one request with the client's deadline and error handling (the client's own `send`). */
type Send = <T>(options: CallOptions, call: (signal: AbortSignal) => Promise<Outcome<T>>) => Promise<T>;

/** Options of {@link SkeinSchedules.list}. */
export interface ListSchedulesOptions extends CallOptions {
  /** Schedules per page, 1–100 (server default 50). */
  limit?: number;
  /** `nextPageToken` of the previous page. */
  pageToken?: string;
}

/**
 * The schedule routes (`/schedules`), as `client.schedules`. Each method resolves with the response body or rejects
 * with `SkeinApiError` (`ScheduleNotFoundError` 404, `ScheduleAlreadyExistsError` 409, `ValidationError` 400 naming
 * the field, `UnsupportedWorkflowError` 404) or `SkeinConnectionError`.
 */
export class SkeinSchedules {
  /** @internal built by `SkeinClient`. */
  constructor(
    private readonly api: FetchClient<paths>,
    private readonly send: Send,
  ) {}

  /** `POST /schedules`: creates a schedule; resolves with its id. */
  create(request: CreateScheduleRequest, options: CallOptions = {}): Promise<ScheduleRef> {
    return this.send(options, (signal) => this.api.POST('/schedules', { body: request, signal }));
  }

  /** `GET /schedules`: one page of schedules; pass `nextPageToken` back as `pageToken` for the next. */
  list(options: ListSchedulesOptions = {}): Promise<ScheduleList> {
    const query = { limit: options.limit, pageToken: options.pageToken };
    return this.send(options, (signal) => this.api.GET('/schedules', { params: { query }, signal }));
  }

  /** Every schedule, page by page (`limit` per request). */
  async *all(options: Omit<ListSchedulesOptions, 'pageToken'> = {}): AsyncGenerator<ScheduleList['schedules'][number], void, undefined> {
    let pageToken: string | undefined;
    do {
      const page = await this.list({ ...options, pageToken });
      yield* page.schedules;
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
  }

  /** `GET /schedules/{scheduleId}`: its definition, state, next times, recent and running runs. */
  describe(scheduleId: string, options: CallOptions = {}): Promise<ScheduleDescription> {
    return this.send(options, (signal) => this.api.GET('/schedules/{scheduleId}', { params: { path: { scheduleId } }, signal }));
  }

  /** `PATCH /schedules/{scheduleId}`: changes the fields given (`spec` fields merged, `null` removes one); resolves with the result. */
  update(scheduleId: string, patch: UpdateScheduleRequest, options: CallOptions = {}): Promise<ScheduleDescription> {
    return this.send(options, (signal) => this.api.PATCH('/schedules/{scheduleId}', { params: { path: { scheduleId } }, body: patch, signal }));
  }

  /** `POST /schedules/{scheduleId}/pause`. */
  pause(scheduleId: string, note?: string, options: CallOptions = {}): Promise<SchedulePausedState> {
    return this.send(options, (signal) => this.api.POST('/schedules/{scheduleId}/pause', { params: { path: { scheduleId } }, body: { note }, signal }));
  }

  /** `POST /schedules/{scheduleId}/unpause`. */
  unpause(scheduleId: string, note?: string, options: CallOptions = {}): Promise<SchedulePausedState> {
    return this.send(options, (signal) => this.api.POST('/schedules/{scheduleId}/unpause', { params: { path: { scheduleId } }, body: { note }, signal }));
  }

  /** `POST /schedules/{scheduleId}/trigger`: starts one run now, even while paused. */
  trigger(scheduleId: string, request: TriggerRequest = {}, options: CallOptions = {}): Promise<ScheduleRef> {
    return this.send(options, (signal) => this.api.POST('/schedules/{scheduleId}/trigger', { params: { path: { scheduleId } }, body: request, signal }));
  }

  /** `POST /schedules/{scheduleId}/backfill`: starts the runs due between `startAt` and `endAt` (ISO 8601). */
  backfill(scheduleId: string, request: BackfillRequest, options: CallOptions = {}): Promise<ScheduleRef> {
    return this.send(options, (signal) => this.api.POST('/schedules/{scheduleId}/backfill', { params: { path: { scheduleId } }, body: request, signal }));
  }

  /** `DELETE /schedules/{scheduleId}`; runs it started are not affected. */
  async delete(scheduleId: string, options: CallOptions = {}): Promise<void> {
    await this.send(options, (signal) => this.api.DELETE('/schedules/{scheduleId}', { params: { path: { scheduleId } }, signal }));
  }
}
