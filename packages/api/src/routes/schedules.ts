import { randomUUID } from 'node:crypto';
import type { ScheduleUpdateOptions } from '@temporalio/client';
import { ApiError } from '../errors.js';
import { defineRoute, parseOr400, type Deps } from '../route.js';
import {
  createScheduleRequestSchema,
  listSchedulesQuerySchema,
  scheduleDescriptionSchema,
  scheduleListSchema,
  scheduleParams,
  scheduleRefSchema,
  updateScheduleRequestSchema,
  type ScheduleDefinitionInput,
} from '../schemas/schedules.js';
import { checkInput } from '../temporal/input-check.js';
import { describeSchedule, isDeclared, scheduleCall, scheduleOptions, scheduleView, type ResolvedDefinition } from '../temporal/schedules.js';
import { withPageToken } from '../temporal/engine.js';

/**
 * Resolves a definition's catalog (default catalog when absent) and workflow (a name or alias → its canonical
 * name), and checks its input against the workflow's published input schema.
 * @throws ApiError `CatalogNotAvailableError` / `UnsupportedWorkflowError` (404), `ValidationError` (400) for the input.
 */
async function resolveDefinition(deps: Deps, def: ScheduleDefinitionInput): Promise<ResolvedDefinition> {
  const catalog = def.catalog ?? deps.config.defaultCatalog;
  const entry = await deps.catalogs.resolve(catalog, def.workflowName);
  checkInput(entry.inputSchema, def.input, ['body', 'input']);
  return { ...def, catalog, workflowName: entry.name };
}

const definitionErrors = ['CatalogNotAvailableError', 'UnsupportedWorkflowError'] as const;

/** Without `undefined` members, so that `{ ...current, ...patch }` keeps what the patch leaves out. */
function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export const scheduleRoutes = [
  defineRoute({
    method: 'post',
    path: '/schedules',
    operationId: 'createSchedule',
    summary: 'Create a schedule',
    description:
      'Creates a Temporal Schedule that starts `workflowName` on the catalog at the times of `spec`. The workflow must be served by the catalog and `input` must match its input schema; nothing is created otherwise. Durations are strings such as `2s` or `1h`. The default overlap policy is `skip`.',
    tag: 'Schedules',
    body: createScheduleRequestSchema,
    responses: { 201: { description: 'Created', schema: scheduleRefSchema } },
    errors: [...definitionErrors, 'ScheduleAlreadyExistsError'],
    async handler({ ctx, deps, body }) {
      const { scheduleId = randomUUID(), ...def } = body;
      const resolved = await resolveDefinition(deps, def);
      await scheduleCall(scheduleId, () => deps.client.schedule.create(scheduleOptions(scheduleId, resolved)));
      ctx.status = 201;
      ctx.body = { scheduleId };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/schedules',
    operationId: 'listSchedules',
    summary: 'List schedules',
    description:
      "One page of the namespace's schedules (API-created and declared), `limit` at a time; `nextPageToken` reads the next. The engine lists schedules from its visibility store, so one created a moment ago may appear a moment later.",
    tag: 'Schedules',
    query: listSchedulesQuerySchema,
    responses: { 200: { description: 'Schedules', schema: scheduleListSchema } },
    async handler({ ctx, deps, query }) {
      const page = await scheduleCall(null, () =>
        withPageToken(query.pageToken, () =>
          deps.client.workflowService.listSchedules({
            namespace: deps.client.options.namespace,
            maximumPageSize: query.limit,
            ...(query.pageToken ? { nextPageToken: Buffer.from(query.pageToken, 'base64url') } : {}),
          }),
        ),
      );
      const ids = (page.schedules ?? []).map((s) => s.scheduleId ?? '').filter(Boolean);
      // The list entry carries neither the catalog nor the memo decoded: each schedule is described (in parallel).
      // A schedule deleted between the two calls is left out; any other failure fails the page.
      const described = await Promise.all(
        ids.map((id) =>
          describeSchedule(deps.client, id).catch((err: unknown) => {
            if (err instanceof ApiError && err.type === 'ScheduleNotFoundError') return null;
            throw err;
          }),
        ),
      );
      const schedules = described
        .filter((d) => d !== null)
        .map((d) => ({
          scheduleId: d.scheduleId,
          workflowName: d.action.workflowType,
          catalog: d.action.taskQueue,
          paused: d.state.paused,
          declared: isDeclared(d.memo),
          nextActionTimes: d.info.nextActionTimes.map((t) => t.toISOString()),
        }));
      const token = page.nextPageToken && page.nextPageToken.length > 0 ? Buffer.from(page.nextPageToken).toString('base64url') : null;
      ctx.body = { schedules, nextPageToken: token };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/schedules/{scheduleId}',
    operationId: 'describeSchedule',
    summary: 'Describe a schedule',
    description:
      'Its definition, whether it is paused (and the note), its next due times, the runs it started lately (`recentActions`, oldest first) and those still open (`running`).',
    tag: 'Schedules',
    params: scheduleParams,
    responses: { 200: { description: 'The schedule', schema: scheduleDescriptionSchema } },
    errors: ['ScheduleNotFoundError'],
    async handler({ ctx, deps, params }) {
      ctx.body = scheduleView(await describeSchedule(deps.client, params.scheduleId));
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/schedules/{scheduleId}',
    operationId: 'updateSchedule',
    summary: 'Change a schedule',
    description:
      'Changes any field of the definition: the fields given replace the current ones, `spec` fields are merged into the current spec (`null` removes one), and the result is checked as on create. A declared schedule is set back to its declaration when its next build becomes current.',
    tag: 'Schedules',
    params: scheduleParams,
    body: updateScheduleRequestSchema,
    responses: { 200: { description: 'The changed schedule', schema: scheduleDescriptionSchema } },
    errors: ['ScheduleNotFoundError', ...definitionErrors],
    async handler({ ctx, deps, params, body }) {
      const current = scheduleView(await describeSchedule(deps.client, params.scheduleId));
      const { spec: specPatch, ...rest } = body;
      const spec = Object.fromEntries(Object.entries({ ...current.spec, ...defined(specPatch ?? {}) }).filter(([, v]) => v !== null)) as Record<
        string,
        unknown
      >;
      const merged = parseOr400(
        createScheduleRequestSchema.omit({ scheduleId: true }),
        { ...defined(current), note: current.note ?? undefined, ...defined(rest), spec },
        'body',
      );
      const resolved = await resolveDefinition(deps, merged);
      const { scheduleId: _id, memo: _memo, ...options } = scheduleOptions(params.scheduleId, resolved);
      await scheduleCall(params.scheduleId, () => deps.client.schedule.getHandle(params.scheduleId).update(() => options as ScheduleUpdateOptions));
      ctx.body = scheduleView(await describeSchedule(deps.client, params.scheduleId));
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/schedules/{scheduleId}',
    operationId: 'deleteSchedule',
    summary: 'Delete a schedule',
    description: 'Deletes the schedule; runs it started are not affected.',
    tag: 'Schedules',
    params: scheduleParams,
    responses: { 204: { description: 'Deleted' } },
    errors: ['ScheduleNotFoundError'],
    async handler({ ctx, deps, params }) {
      await scheduleCall(params.scheduleId, () => deps.client.schedule.getHandle(params.scheduleId).delete());
      ctx.status = 204;
    },
  }),
];
