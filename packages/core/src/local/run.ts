/**
 * Running a workflow definition directly in Node (unit tests of workflow code, no engine): the Node entry's
 * `workflow()` call and its helpers. Workflow code runs unchanged; steps and child workflows run in-process.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { LocalContextOverrides } from '../shared/callables.js';
import type { WorkflowContext } from '../shared/context.js';
import type { WorkflowDefinition } from '../shared/definition.js';
import { durationMs, type Duration } from '../shared/duration.js';
import { checkSchema } from '../shared/validate.js';

/** Thrown by the local `context.control.continueAsNew` and caught by `runLocally`, which starts the next run. */
class LocalContinueAsNew extends Error {
  override name = 'LocalContinueAsNew';
  readonly input: unknown;
  constructor(input: unknown) {
    super('continue as new');
    this.input = input;
  }
}

/** The fields of `fields` that are given: one set to `undefined` keeps the default it would replace. */
function given<T extends object>(fields: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(fields ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function localContext(def: WorkflowDefinition, workflowId: string, overrides: LocalContextOverrides | undefined): WorkflowContext {
  const context: WorkflowContext = {
    info: {
      workflowId,
      runId: randomUUID(),
      workflowType: def.name,
      attempt: 1,
      parent: null,
      root: null,
      startTime: Date.now(),
      catalog: 'local',
    },
    control: {
      async continueAsNew(input: unknown): Promise<never> {
        const checked = checkSchema(def.inputSchema, input ?? undefined, `continueAsNew input of workflow "${def.name}"`);
        if (!checked.ok) throw new TypeError(checked.message);
        throw new LocalContinueAsNew(input);
      },
      isContinueAsNewSuggested: () => false,
    },
  };
  return {
    info: { ...context.info, ...given(overrides?.info) },
    control: { ...context.control, ...given(overrides?.control) },
  };
}

/**
 * Runs `def` in Node with schema checks and a local `context` (`info.workflowId` is `local-<name>-<uuid>`,
 * `info.catalog` is `local`, `control.isContinueAsNewSuggested()` is false), each field of `overrides` replacing the
 * default one; a `continueAsNew(next)` starts the next run in-process with `next`, and the chain's last output is
 * returned.
 * @throws TypeError on a schema failure (input, output, or continue-as-new input); whatever `fn` throws.
 */
export async function runLocally(def: WorkflowDefinition, input: unknown, overrides?: LocalContextOverrides): Promise<unknown> {
  const workflowId = `local-${def.name}-${randomUUID()}`;
  let current = input;
  for (;;) {
    const i = checkSchema(def.inputSchema, current, `input of workflow "${def.name}"`);
    if (!i.ok) throw new TypeError(i.message);
    let out: unknown;
    try {
      out = await def.fn(i.value, localContext(def, workflowId, overrides));
    } catch (err) {
      if (err instanceof LocalContinueAsNew) {
        current = err.input;
        continue;
      }
      throw err;
    }
    const o = checkSchema(def.outputSchema, out, `output of workflow "${def.name}"`);
    if (!o.ok) throw new TypeError(o.message);
    return o.value;
  }
}

/**
 * `sleep` in Node: a real timer. In workflow code the bundle's `sleep` is a durable Temporal timer instead.
 * @throws TypeError (rejected promise) when `duration` is not ms or a duration string such as `'3s'`.
 */
export async function sleep(duration: Duration): Promise<void> {
  await delay(durationMs(duration, 'sleep()'));
}
