import { deepMerge } from './merge.js';
import { DEFAULT_ACTIVITY_OPTIONS, type ActivityOptions } from './options.js';

/** The layers of activity options (package rule 11, docs/package-rules.md), each optional. */
export interface ActivityOptionLayers {
  /** Options the parent workflow passed down to this child (its own effective workflow-level options). */
  inherited?: ActivityOptions;
  /** The running workflow definition's `options.activityOptions`. */
  definition?: ActivityOptions;
  /** `activityOptions` given where this workflow was called as a child: `child(input, { activityOptions })`. */
  invocation?: ActivityOptions;
  /** The step's or evaluator's own `options.activityOptions`. */
  activity?: ActivityOptions;
}

/**
 * Workflow-level options a workflow passes to its children and applies to its activities before their own:
 * inherited < definition < invocation.
 */
export function workflowLevelOptions(layers: Omit<ActivityOptionLayers, 'activity'>): ActivityOptions {
  return deepMerge<ActivityOptions>(layers.inherited, layers.definition, layers.invocation);
}

/**
 * Effective options of one activity call, lowest to highest: Skein's defaults
 * (`DEFAULT_ACTIVITY_OPTIONS`) < inherited < definition < invocation < the activity's own. Objects merge
 * deeply; arrays and scalars replace. `activityId` is taken from the activity's own layer only.
 */
export function effectiveActivityOptions(layers: ActivityOptionLayers): ActivityOptions {
  // An id comes from the activity's own options only (a workflow-level one, refused by the definition schema, could
  // still arrive untyped through a child call from JavaScript).
  const { activityId: _workflowLevelId, ...workflowLevel } = workflowLevelOptions(layers);
  return deepMerge<ActivityOptions>(DEFAULT_ACTIVITY_OPTIONS, workflowLevel, layers.activity);
}
