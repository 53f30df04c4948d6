// Baseline for the worker benchmark: the same 3-step workflow written directly against the Temporal SDK.
import { proxyActivities } from '@temporalio/workflow';

const { one, two, three } = proxyActivities({ startToCloseTimeout: '5 minutes' });

export async function threeBaseline(n) {
  return three(await two(await one(n)));
}
