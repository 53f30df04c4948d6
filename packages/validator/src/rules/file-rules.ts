/**
 * The file rules: those whose visitors run in each file's single traversal. A module of its own, so that the
 * `--cache` fast path re-deriving an edited file loads these and none of the project rules (index.ts lists both).
 */
import type { FileRule } from '../types.js';
import { rule as misplacedDefinition } from './conventions/misplaced-definition.js';
import { rule as importStyle } from './steps/import-style.js';
import { rule as namedExportsOnly } from './steps/named-exports-only.js';
import { rule as noNestedCall } from './steps/no-nested-call.js';
import { rule as noTopLevelCall } from './steps/no-top-level-call.js';
import { rule as declaredSchedules } from './workflow/declared-schedules.js';
import { rule as noNodeGlobals } from './workflow/no-node-globals.js';
import { rule as noNondeterministicApis } from './workflow/no-nondeterministic-apis.js';

/** Rules whose visitors run in each file's single traversal, in the order their findings are reported. */
export const fileRules: readonly FileRule[] = [
  misplacedDefinition,
  namedExportsOnly,
  importStyle,
  noTopLevelCall,
  noNestedCall,
  noNodeGlobals,
  noNondeterministicApis,
  declaredSchedules,
];
