import { z } from 'zod';
import { defineRoute } from '../route.js';
import { backfillRequestSchema, scheduleNoteRequestSchema, scheduleParams, scheduleRefSchema, triggerRequestSchema } from '../schemas/schedules.js';
import { scheduleCall, temporalOverlap } from '../temporal/schedules.js';

const pausedStateSchema = z.object({ scheduleId: z.string(), paused: z.boolean(), note: z.string().nullable() }).meta({ id: 'SchedulePausedState' });

/** `pause` and `unpause`: the same route but for the state it sets. */
function pauseRoute(paused: boolean) {
  const verb = paused ? 'pause' : 'unpause';
  return defineRoute({
    method: 'post',
    path: `/schedules/{scheduleId}/${verb}`,
    operationId: `${verb}Schedule`,
    summary: paused ? 'Pause a schedule' : 'Unpause a schedule',
    description: paused
      ? 'No run comes due while it is paused (`trigger` still starts one). `note` says why (default: "Paused through the Skein API").'
      : 'Runs come due again from now on; the times missed while paused are not caught up. `note` replaces the note.',
    tag: 'Schedules',
    params: scheduleParams,
    body: scheduleNoteRequestSchema.optional(),
    responses: { 200: { description: paused ? 'Paused' : 'Unpaused', schema: pausedStateSchema } },
    errors: ['ScheduleNotFoundError'],
    async handler({ ctx, deps, params, body }) {
      const note = body?.note ?? (paused ? 'Paused through the Skein API' : 'Unpaused through the Skein API');
      const handle = deps.client.schedule.getHandle(params.scheduleId);
      await scheduleCall(params.scheduleId, () => (paused ? handle.pause(note) : handle.unpause(note)));
      ctx.body = { scheduleId: params.scheduleId, paused, note };
    },
  });
}

export const scheduleActionRoutes = [
  pauseRoute(true),
  pauseRoute(false),
  defineRoute({
    method: 'post',
    path: '/schedules/{scheduleId}/trigger',
    operationId: 'triggerSchedule',
    summary: 'Start a run of a schedule now',
    description:
      'Starts one run now, even while the schedule is paused; by default (`allow_all`) even when one of its runs is still open. The engine starts it within moments: it appears in `recentActions`.',
    tag: 'Schedules',
    params: scheduleParams,
    body: triggerRequestSchema.optional(),
    responses: { 202: { description: 'Run requested', schema: scheduleRefSchema } },
    errors: ['ScheduleNotFoundError'],
    async handler({ ctx, deps, params, body }) {
      await scheduleCall(params.scheduleId, () => deps.client.schedule.getHandle(params.scheduleId).trigger(temporalOverlap(body?.overlap ?? 'allow_all')));
      ctx.status = 202;
      ctx.body = { scheduleId: params.scheduleId };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/schedules/{scheduleId}/backfill',
    operationId: 'backfillSchedule',
    summary: 'Run the times a schedule had in a period',
    description:
      "Starts a run for each time the schedule's spec had due between `startAt` and `endAt` (a past period, typically), even while paused; by default (`allow_all`) every one of them starts, however they overlap.",
    tag: 'Schedules',
    params: scheduleParams,
    body: backfillRequestSchema,
    responses: { 202: { description: 'Backfill requested', schema: scheduleRefSchema } },
    errors: ['ScheduleNotFoundError'],
    async handler({ ctx, deps, params, body }) {
      await scheduleCall(params.scheduleId, () =>
        deps.client.schedule
          .getHandle(params.scheduleId)
          .backfill({ start: new Date(body.startAt), end: new Date(body.endAt), overlap: temporalOverlap(body.overlap ?? 'allow_all') }),
      );
      ctx.status = 202;
      ctx.body = { scheduleId: params.scheduleId };
    },
  }),
];
