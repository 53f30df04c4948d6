import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { startStack, type Stack } from '../support/stack.js';

/**
 * Steps and evaluators in nested folders (fixtures/projects/nested-shared), served from the TypeScript sources on the
 * shared engine: in folders nested in `shared/steps` and `shared/evaluators` (`src/shared/steps/rates/euro.ts`, made
 * by the project's own helper around step(), and `src/shared/evaluators/quality/strict/judge-total.ts`), and in
 * folders nested in a workflow's own `steps/` and `evaluators/` (`src/billing/refund/steps/ledger/notify/pounds.ts`).
 * They are registered and run, as the system we re-implement loads every file below those folders.
 */
let stack: Stack;
let connection: Connection;

beforeAll(async () => {
  stack = await startStack('fixtures/projects/nested-shared');
  connection = await Connection.connect({ address: stack.address });
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await connection?.close();
});

describe('shared activities in nested folders', () => {
  it('registers and runs them, in every run of a continue-as-new chain', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'invoice', input: { customer: 'acme', cents: 1250, months: 1 } });
    expect(res.status).toBe(200);
    // The second run: 2,250 cents at 0.5, rounded up to whole euros.
    expect(res.body).toMatchObject({ status: 'completed', output: { number: 'INV-ACME', euroCents: 1200, verdict: 'billable' } });
    const history = await new Client({ connection }).workflow.getHandle(res.body.workflowId).fetchHistory();
    const types = (history.events ?? []).flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
    expect(types).toEqual(['invoice#draftInvoice', 'invoice#toEuro', 'invoice#roundUp', 'invoice#judgeTotal']);
  });

  it("registers and runs the activities of folders nested in a workflow's own steps and evaluators folders", async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'refund', input: { charge: 'ch_1', cents: 1000 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'completed', output: { reversed: 'reversed ch_1', pence: 850, positive: true } });
    const history = await new Client({ connection }).workflow.getHandle(res.body.workflowId).fetchHistory();
    const types = (history.events ?? []).flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
    expect(types).toEqual(['refund#reverseCharge', 'refund#toPounds', 'refund#positiveAmount']);
  });
});
