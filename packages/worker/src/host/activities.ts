import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { HTTP_REQUEST_ACTIVITY_TYPE, activityType, type HttpRequestArgs } from '@skein/core';
import { performHttpRequest, runActivity, toActivityFailure } from '@skein/core/internal';
import type { ActivityDefinitions, LoadedActivity, LoadedProject } from './load.js';

/** A Temporal activity implementation: one JSON input, one JSON output. */
export type ActivityImplementation = (input: unknown) => Promise<unknown>;

/**
 * Which definition serves an activity type: `W#a` is workflow W's own step or evaluator `a`,
 * else the shared activity `a` (rule 6), for any workflow W of the catalog.
 */
export class ActivityResolver {
  private readonly scoped = new Map<string, LoadedActivity>();
  private readonly shared = new Map<string, LoadedActivity>();
  private readonly workflows = new Set<string>();
  private readonly workflowFiles = new Map<string, string>();
  private readonly definitions: ActivityDefinitions;
  private readonly overrides: ReadonlyMap<string, ActivityImplementation> | undefined;

  /**
   * @param overrides replacements by activity name (a step's or evaluator's `name`), looked up on every call
   *   (tests change them between runs); a replacement gets the input as sent and answers the output as is.
   */
  constructor(project: LoadedProject, overrides?: ReadonlyMap<string, ActivityImplementation>) {
    this.overrides = overrides;
    for (const wf of project.workflows) {
      this.workflows.add(wf.facts.name);
      this.workflowFiles.set(wf.facts.name, wf.entry.file);
      for (const act of project.scoped.get(wf.entry.name) ?? []) this.scoped.set(activityType(wf.facts.name, act.facts.name), act);
    }
    for (const act of project.shared) this.shared.set(act.facts.name, act);
    this.definitions = project.definitions;
  }

  /**
   * Runs an activity's definition with its schemas (`runActivity`), importing its module on first use. A module
   * that fails to load, or no longer defines what discovery read, fails the attempt with a non-retryable
   * `ActivityLoadFailed` naming the file and the cause.
   */
  async run(act: LoadedActivity, input: unknown): Promise<unknown> {
    const override = this.overrides?.get(act.facts.name);
    if (override) return override(input);
    let def;
    try {
      def = await this.definitions.of(act.entry);
    } catch (err) {
      throw ApplicationFailure.create({ message: (err as Error).message, type: 'ActivityLoadFailed', nonRetryable: true });
    }
    return runActivity(def, input);
  }

  /** The activity serving `type`, or undefined when none does. Workflow-scoped wins (rule 8 forbids both). */
  resolve(type: string): LoadedActivity | undefined {
    const own = this.scoped.get(type);
    if (own) return own;
    const hash = type.indexOf('#');
    if (hash < 0 || !this.workflows.has(type.slice(0, hash))) return undefined;
    return this.shared.get(type.slice(hash + 1));
  }

  /** The file defining workflow `name` on this catalog, if it is one of the project's. */
  workflowFileOf(name: string): string | undefined {
    return this.workflowFiles.get(name);
  }

  /** Registered workflow-scoped activity types. */
  scopedTypes(): string[] {
    return [...this.scoped.keys()];
  }

  get hasShared(): boolean {
    return this.shared.size > 0;
  }
}

/**
 * The activities the worker registers: every workflow's own steps and evaluators as `W#<name>`, and one
 * dynamic `default` activity that serves every shared activity as `W#<shared name>` for any workflow W of
 * the catalog — one registration per shared activity instead of one per workflow and
 * shared activity. Each runs its definition with its schemas (`ActivityResolver.run`). Every catalog also serves the
 * built-in HTTP request activity of `sendHttpRequest` and `sendPostRequestAndAwaitWebhook` (`HTTP_REQUEST_ACTIVITY_TYPE`).
 */
export function buildActivities(resolver: ActivityResolver): Record<string, ActivityImplementation> {
  const out: Record<string, ActivityImplementation> = { [HTTP_REQUEST_ACTIVITY_TYPE]: httpRequestActivity };
  for (const type of resolver.scopedTypes()) {
    const act = resolver.resolve(type)!;
    out[type] = (input) => resolver.run(act, input);
  }
  if (resolver.hasShared) {
    out.default = (input) => {
      const type = Context.current().info.activityType;
      const act = resolver.resolve(type);
      if (!act) {
        throw ApplicationFailure.nonRetryable(`Activity type "${type}" is not served on this catalog`, 'ActivityNotRegistered');
      }
      return resolver.run(act, input);
    };
  }
  return out;
}

/**
 * The built-in HTTP request activity: `performHttpRequest`, its errors made failures as a step's are (`FatalError`
 * and `ValidationError` not retried).
 */
export async function httpRequestActivity(input: unknown): Promise<unknown> {
  try {
    return await performHttpRequest(input as HttpRequestArgs);
  } catch (err) {
    throw toActivityFailure(err, 'sendHttpRequest');
  }
}
