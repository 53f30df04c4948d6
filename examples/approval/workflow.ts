import { condition, defineQuery, defineSignal, defineUpdate, setHandler, workflow, z } from '@skein/core';
import { notifyApprover } from './steps.js';

/** What the `status` query answers. */
export interface ApprovalStatus {
  state: 'waiting' | 'approved' | 'rejected' | 'expired';
  comments: string[];
  deadlineMinutes: number;
}

/** `POST /workflow/{id}/signal/decide` with `{ "payload": { "approved": true, "by": "ada" } }`. */
export const decide = defineSignal<[{ approved: boolean; by: string }]>('decide');
/** `POST /workflow/{id}/signal/comment` with `{ "payload": { "text": "looks fine" } }`. */
export const comment = defineSignal<[{ text: string }]>('comment');
/** `POST /workflow/{id}/query/status` answers the `ApprovalStatus` itself. */
export const status = defineQuery<ApprovalStatus>('status');
/** `POST /workflow/{id}/update/extend` with `{ "payload": 30 }` adds minutes and answers the new deadline. */
export const extend = defineUpdate<number, [number]>('extend');

export default workflow({
  name: 'approval',
  description: 'Waits for a human decision sent as a signal; answers a status query and an update that extends the deadline.',
  inputSchema: z.object({ request: z.string().min(1), approver: z.string().min(1), deadlineMinutes: z.number().positive().default(60) }),
  fn: async ({ request, approver, deadlineMinutes }) => {
    const current: ApprovalStatus = { state: 'waiting', comments: [], deadlineMinutes };
    let decidedBy: string | null = null;
    setHandler(decide, ({ approved, by }) => {
      current.state = approved ? 'approved' : 'rejected';
      decidedBy = by;
    });
    setHandler(comment, ({ text }) => {
      current.comments.push(text);
    });
    setHandler(status, () => current);
    setHandler(extend, (minutes) => (current.deadlineMinutes += minutes), {
      validator: (minutes) => {
        if (!(minutes > 0)) throw new RangeError('extend by a positive number of minutes');
      },
    });
    await notifyApprover({ request, approver });
    // Wait for the decision until the deadline; an `extend` update restarts the wait with the later deadline.
    // (Date.now() is the workflow's deterministic clock inside Temporal's sandbox.)
    const startedAt = Date.now();
    for (;;) {
      const deadline = current.deadlineMinutes;
      const remainingMs = startedAt + deadline * 60_000 - Date.now();
      const woke = remainingMs > 0 && (await condition(() => current.state !== 'waiting' || current.deadlineMinutes !== deadline, remainingMs));
      if (current.state !== 'waiting') break;
      if (!woke) {
        current.state = 'expired';
        break;
      }
    }
    return { request, state: current.state, decidedBy, comments: current.comments };
  },
});
