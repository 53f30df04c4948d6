/**
 * Whether runs recorded by one version of a workflow replay on another, judged from the two command shapes.
 *
 * The model (docs/versioning.md explains it for authors):
 * - A shape is expanded into paths: token sequences of commands and waits. An `alt` takes each branch, a `loop`
 *   runs 0, 1 or 2 times, a `parallel` group issues the commands each branch issues before its first wait, in branch
 *   order, and a `patched(id)` takes its `then` branch (after its marker) or its `else` branch.
 * - A run of the old version can be stopped at any wait of any old path: its history holds exactly the commands of
 *   that path up to the wait. Replay matches them in order: a new build that picks the run up must issue the same
 *   commands first, and may wait before the last of them only where the old path waited too (a result the history
 *   holds); whatever it issues after them is new history, even in the same workflow task. Where the old path began a
 *   `condition()` wait in a task that issued nothing, the new code may issue commands before it waits in a condition
 *   too: replay takes them as that task's new commands even when later tasks follow.
 * - The old version is quantified over all paths; the new one needs one matching path whose decisions agree with the
 *   old path's where both versions make the same decision (an `alt` with the same deciding expression), the old
 *   path's decisions counted over the whole path (a run stopped before a decision already has its value).
 * - `deprecatePatch(id)` in the new code: the old paths through `patched(id)`'s `else` branch are over. A match that
 *   relies on a decision only the new version makes proves nothing: the verdict is then unprovable.
 * - A `patched(id)` the old version did not have takes its `else` branch for old runs (replay answers false).
 * - Handlers that issue commands run to their end inside one run: their whole paths must match.
 * - A `partial` node in the compared prefix makes the verdict unprovable.
 */
import type { CommandKind, ShapeLocation, ShapeNode, WorkflowShape } from './types.js';

/** Paths expanded per shape before the verdict gives up as unprovable. */
export const MAX_PATHS = 4096;

type Token =
  | { t: 'cmd'; key: string; command: CommandKind; type: string; activityId?: string; at: ShapeLocation }
  | { t: 'wait'; at: ShapeLocation; condition?: true }
  | { t: 'partial'; construct: string; at: ShapeLocation }
  | { t: 'opaque'; key: string; at: ShapeLocation };

interface Choice {
  key: string;
  label: string;
  /** Token index at which the decision was made. */
  index: number;
  /** Whether the branches differ in commands (a decision between equal branches decides nothing). */
  decisive: boolean;
  at: ShapeLocation;
}

interface Path {
  tokens: Token[];
  choices: Choice[];
  exit?: 'return' | 'throw' | 'break' | 'continue';
}

class TooManyPaths extends Error {}

/** A command the old version recorded, as a finding names it. */
export interface OldCommand {
  command: CommandKind;
  /** Activity or workflow type, patch id, or empty for timers and continue-as-new. */
  type: string;
  /** An activity's id set in its definition's options (absent: Temporal's sequence number). */
  activityId?: string;
  at: ShapeLocation;
}

/** The verdict on one workflow. */
export type ShapeVerdict =
  /** The two shapes issue the same commands in the same order (positions and arguments aside). */
  | { verdict: 'same' }
  /** Different, but every run the old version can be stopped in replays on the new one. */
  | { verdict: 'compatible' }
  /**
   * A run stopped at a wait of the old version replays to a different command: `at` is the first divergent call of
   * the new code (or where the new code waits or ends instead), `old` the recorded command it no longer matches
   * (absent when the new code issues a command where the old one only waited), `part` `fn` or `handler <name>`.
   */
  | { verdict: 'incompatible'; at: ShapeLocation; newCommand?: OldCommand; old?: OldCommand; part: string }
  /** Differences the analysis cannot judge: `construct` at `at` stopped it. */
  | { verdict: 'unprovable'; construct: string; at: ShapeLocation; part: string };

/** A shape without positions, for equality. */
export function canonicalShape(node: ShapeNode): string {
  return JSON.stringify(node, (key, value: unknown) => (key === 'at' ? undefined : value));
}

/** Whether two shapes are equal, positions aside (what `canonicalShape` equality says, without the strings). */
export function sameShape(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameShape(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a).filter((k) => k !== 'at');
  const kb = Object.keys(b).filter((k) => k !== 'at');
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!sameShape((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return true;
}

/**
 * Compares the shape a baseline build recorded for a workflow with the shape of its new code.
 * @returns the verdict; never throws (too many paths is an `unprovable` verdict)
 */
export function compareShapes(old: WorkflowShape, next: WorkflowShape): ShapeVerdict {
  const parts: [string, ShapeNode | undefined, ShapeNode | undefined, 'prefix' | 'whole'][] = [['fn', old.shape, next.shape, 'prefix']];
  for (const name of new Set([...Object.keys(old.handlers), ...Object.keys(next.handlers)])) {
    parts.push([`handler ${name}`, old.handlers[name], next.handlers[name], 'whole']);
  }
  let changed = false;
  for (const [part, o, n, mode] of parts) {
    const oldNode = o ?? EMPTY;
    const newNode = n ?? EMPTY;
    if (sameShape(oldNode, newNode)) continue;
    changed = true;
    const verdict = comparePart(oldNode, newNode, mode, part, next);
    if (verdict.verdict !== 'compatible') return verdict;
  }
  return changed ? { verdict: 'compatible' } : { verdict: 'same' };
}

const EMPTY: ShapeNode = { kind: 'seq', items: [] };

function comparePart(old: ShapeNode, next: ShapeNode, mode: 'prefix' | 'whole', part: string, nextShape: WorkflowShape): ShapeVerdict {
  const oldPatches = new Set<string>();
  const oldKeys = new Set<string>();
  const newKeys = new Set<string>();
  const deprecated = new Set<string>();
  collect(old, oldPatches, oldKeys);
  collect(next, new Set(), newKeys, deprecated);
  let oldPaths: Path[];
  let newPaths: Path[];
  const fallbackAt: ShapeLocation = firstLocation(next) ?? { file: nextShape.file, line: 1, column: 1 };
  try {
    oldPaths = expand(old, undefined, deprecated);
    newPaths = expand(next, oldPatches);
  } catch (error) {
    if (!(error instanceof TooManyPaths)) throw error;
    return { verdict: 'unprovable', construct: `more than ${MAX_PATHS} paths through the workflow's branches and loops`, at: fallbackAt, part };
  }
  const shared = new Set([...oldKeys].filter((k) => newKeys.has(k)));
  for (const p of oldPaths) {
    const end = mode === 'whole' ? p.tokens.length : lastWait(p.tokens) + 1;
    if (end <= 0 && mode === 'prefix') continue; // no wait: no run can be stopped inside this path
    const verdict = matchPrefix(p, end, newPaths, shared, mode, part, fallbackAt);
    if (verdict) return verdict;
  }
  return { verdict: 'compatible' };
}

/**
 * Undefined when some new path replays the old path's first `end` tokens (a run stopped at the wait `end - 1`);
 * else the verdict. Replay matches the recorded commands in order: the new path must issue them first, and may
 * wait before the last of them only where the old path waited too (a result the history holds); what it issues
 * after them is new history. In `whole` mode (a handler that ran to its end) it must issue nothing more.
 */
function matchPrefix(
  p: Path,
  end: number,
  newPaths: Path[],
  shared: Set<string>,
  mode: 'prefix' | 'whole',
  part: string,
  fallbackAt: ShapeLocation,
): ShapeVerdict | undefined {
  const oldCmds: Token[] = [];
  const oldWaits = new Set<number>();
  // Where the old code began a condition() wait in a workflow task that issued no command (the history holds a task
  // completed empty): commands the new code issues there, before it waits in a condition too, are accepted by replay
  // as that task's new commands, even with later tasks in the history.
  const oldIdle = new Set<number>();
  let prev: Token | undefined;
  for (const t of p.tokens.slice(0, end)) {
    if (t.t === 'wait') {
      if (t.condition && (!prev || prev.t === 'wait')) oldIdle.add(oldCmds.length);
      oldWaits.add(oldCmds.length);
    } else oldCmds.push(t);
    prev = t;
  }
  const k = oldCmds.length;
  let best: { q: Path; n: number; j: number } | undefined;
  let weak: Choice | undefined;
  let partial: Token | undefined;
  for (const q of newPaths) {
    let n = 0;
    let j = 0;
    let failed = false;
    let stop: Token | undefined;
    let waitedAt = -1;
    // A condition() timer issued as new at an idle task: the old history holds no firing of it.
    let newTimer = false;
    for (; j < q.tokens.length && n < k; j++) {
      const b = q.tokens[j]!;
      if (b.t === 'wait') {
        waitedAt = n;
        if (oldWaits.has(n)) continue;
        failed = true; // waits for a result the recorded run may not have yet, where the history goes on
        break;
      }
      const a = oldCmds[n]!;
      if (b.t === 'cmd' && oldIdle.has(n) && (waitedAt === n || n === 0) && !sameToken(a, b)) {
        let x = j;
        while (q.tokens[x]?.t === 'cmd') x++;
        const w = q.tokens[x];
        if (w?.t === 'wait' && w.condition) {
          if (q.tokens.slice(j, x).some((c) => c.t === 'cmd' && c.command === 'timer')) newTimer = true;
          j = x - 1; // the wait is handled next
          continue;
        }
      }
      if (a.t === 'partial' || b.t === 'partial') {
        stop = a.t === 'partial' ? a : b;
        break;
      }
      if (!sameToken(a, b)) {
        failed = true;
        break;
      }
      if (n > 0 && oldWaits.has(n) && waitedAt !== n) {
        // The same command, but the history has a workflow task boundary before it that the new code does not:
        // whether the replayer accepts commands of two recorded tasks issued in one is not decided here.
        stop = { t: 'partial', construct: 'commands the baseline issued in separate workflow tasks, now issued together', at: b.at };
        break;
      }
      n++;
    }
    if (!failed && !stop && n < k) failed = true; // the new code ends where the history goes on
    if (!failed && !stop && mode === 'whole') {
      const extra = q.tokens.slice(j).findIndex((t) => t.t !== 'wait');
      if (extra >= 0) {
        failed = true;
        j += extra;
      }
    }
    if (!agrees(p, end, q, j, shared)) continue;
    if (stop) {
      partial ??= stop;
      continue;
    }
    if (!failed) {
      // On an old history, a condition() whose timer is new held (its timer never fired there): not a guess.
      const guess = q.choices.find(
        (c) => c.index < j && c.decisive && !shared.has(c.key) && !(newTimer && c.key.startsWith('condition-held(') && c.label === 'held'),
      );
      if (!guess) return undefined;
      weak ??= guess;
      continue;
    }
    if (!best || n > best.n) best = { q, n, j };
  }
  if (weak) return { verdict: 'unprovable', construct: `a decision the baseline did not make (${weak.key})`, at: weak.at, part };
  if (partial) return { verdict: 'unprovable', construct: partial.t === 'partial' ? partial.construct : 'a construct', at: partial.at, part };
  const q = best?.q;
  const j = best?.j ?? 0;
  const oldCmd = oldCmds.slice(best?.n ?? 0).find((x): x is Extract<Token, { t: 'cmd' }> => x.t === 'cmd');
  const newTok = q?.tokens.slice(j).find((x) => x.t === 'cmd') ?? q?.tokens[j] ?? q?.tokens.at(-1);
  const newCmd = newTok?.t === 'cmd' ? newTok : undefined;
  return {
    verdict: 'incompatible',
    at: newTok?.at ?? fallbackAt,
    ...(newCmd ? { newCommand: recorded(newCmd) } : {}),
    ...(oldCmd ? { old: recorded(oldCmd) } : {}),
    part,
  };
}

/**
 * Decisions both versions make agree, deciding expression by deciding expression: the new path's up to where it was
 * compared, the old path's over the whole path. A run stopped before the old code made a decision still has the
 * value it will decide by (an input, a result already recorded): where the new code makes the same decision earlier,
 * it decides the same way.
 */
function agrees(p: Path, _pEnd: number, q: Path, qEnd: number, shared: Set<string>): boolean {
  const byKey = (choices: Choice[]) => {
    const m = new Map<string, string[]>();
    for (const c of choices) if (shared.has(c.key)) m.set(c.key, [...(m.get(c.key) ?? []), c.label]);
    return m;
  };
  const a = byKey(p.choices);
  const b = byKey(q.choices.filter((c) => c.index < qEnd));
  for (const [key, labels] of b) {
    const old = a.get(key) ?? [];
    const n = Math.min(old.length, labels.length);
    for (let i = 0; i < n; i++) if (old[i] !== labels[i]) return false;
  }
  return true;
}

function sameToken(a: Token, b: Token): boolean {
  if (a.t !== b.t) return false;
  if (a.t === 'wait') return true;
  if (a.t === 'cmd' || a.t === 'opaque') return a.key === (b as typeof a).key;
  return false;
}

function lastWait(tokens: Token[]): number {
  for (let i = tokens.length - 1; i >= 0; i--) if (tokens[i]!.t === 'wait' || tokens[i]!.t === 'partial') return i;
  return -1;
}

function collect(node: ShapeNode, patches: Set<string>, keys: Set<string>, deprecated?: Set<string>): void {
  switch (node.kind) {
    case 'seq':
      return node.items.forEach((n) => collect(n, patches, keys, deprecated));
    case 'alt':
      keys.add(node.key);
      return node.branches.forEach((b) => collect(b.body, patches, keys, deprecated));
    case 'loop':
    case 'call':
      return collect(node.body, patches, keys, deprecated);
    case 'parallel':
      return node.branches.forEach((n) => collect(n, patches, keys, deprecated));
    case 'patched':
      patches.add(node.id);
      if (node.deprecated) deprecated?.add(node.id);
      collect(node.then, patches, keys, deprecated);
      return collect(node.else, patches, keys, deprecated);
    default:
      return;
  }
}

function firstLocation(node: ShapeNode): ShapeLocation | undefined {
  if ('at' in node) return node.at;
  if (node.kind === 'seq') for (const n of node.items) return firstLocation(n);
  return undefined;
}

function push(path: Path, token: Token): void {
  const last = path.tokens.at(-1);
  // A wait after a wait is the same wait, except a condition() begun by a task that issued nothing (see derive.ts).
  if (token.t === 'wait' && last?.t === 'wait' && (!token.condition || last.condition)) return;
  path.tokens.push(token);
}

function concat(a: Path, b: Path): Path {
  const out: Path = { tokens: [...a.tokens], choices: [...a.choices] };
  const offset = a.tokens.length;
  for (const t of b.tokens) push(out, t);
  for (const c of b.choices) out.choices.push({ ...c, index: c.index + offset });
  if (b.exit) out.exit = b.exit;
  return out;
}

/** A command as a token and a verdict name it (`activityId` only when one is set). */
function recorded({ command, type, activityId, at }: OldCommand): OldCommand {
  return activityId === undefined ? { command, type, at } : { command, type, activityId, at };
}

function checkCount(paths: Path[]): Path[] {
  if (paths.length > MAX_PATHS) throw new TooManyPaths();
  return paths;
}

/**
 * Every path through `node`. `oldPatches` is undefined for the old side; for the new side, the patch ids old runs may
 * hold. `deprecated` (old side): patch ids the new code deprecates, whose `else` branch no running run takes.
 */
function expand(node: ShapeNode, oldPatches: Set<string> | undefined, deprecated?: Set<string>): Path[] {
  const one = (tokens: Token[]): Path[] => [{ tokens, choices: [] }];
  switch (node.kind) {
    case 'command': {
      const { command, type, activityId, at } = node;
      // An id set in options is matched on replay as the type is: it is part of the command's identity.
      const key = activityId === undefined ? `${command}:${type}` : `${command}:${type}\n${activityId}`;
      return one([{ t: 'cmd', key, ...recorded({ command, type, activityId, at }) }]);
    }
    case 'wait':
      return one([node.condition ? { t: 'wait', at: node.at, condition: true } : { t: 'wait', at: node.at }]);
    case 'partial':
      return one([{ t: 'partial', construct: node.construct, at: node.at }]);
    case 'exit':
      return [{ tokens: [], choices: [], exit: node.how }];
    case 'seq': {
      let paths: Path[] = one([]);
      for (const item of node.items) {
        const sub = expand(item, oldPatches, deprecated);
        const next: Path[] = [];
        for (const p of paths) {
          if (p.exit) next.push(p);
          else for (const s of sub) next.push(concat(p, s));
        }
        paths = checkCount(next);
      }
      return paths;
    }
    case 'call':
      return expand(node.body, oldPatches, deprecated).map((p) => (p.exit === 'return' ? { tokens: p.tokens, choices: p.choices } : p));
    case 'alt': {
      const canon = node.branches.map((b) => canonicalShape(b.body));
      const decisive = canon.some((c) => c !== canon[0]);
      const out: Path[] = [];
      for (const b of node.branches) {
        for (const p of expand(b.body, oldPatches, deprecated)) {
          out.push({ ...p, choices: [{ key: node.key, label: b.label, index: 0, decisive, at: node.at }, ...p.choices] });
        }
      }
      return checkCount(out);
    }
    case 'patched': {
      const marker: Token = { t: 'cmd', key: `marker:${node.id}`, command: 'marker', type: node.id, at: node.at };
      const thenPaths = expand(node.then, oldPatches, deprecated).map((p) => concat({ tokens: [marker], choices: [] }, p));
      const elsePaths = expand(node.else, oldPatches, deprecated);
      // New code replaying a run recorded without this patch: patched() answers false.
      if (oldPatches && !oldPatches.has(node.id)) return elsePaths;
      // deprecatePatch(id) in the new code declares the runs that took the old code's `else` branch over.
      if (!oldPatches && deprecated?.has(node.id)) return thenPaths;
      return checkCount([...thenPaths, ...elsePaths]);
    }
    case 'loop': {
      const body = expand(node.body, oldPatches, deprecated);
      const out: Path[] = one([]);
      let running: Path[] = one([]);
      for (let i = 0; i < 2; i++) {
        const next: Path[] = [];
        for (const p of running) {
          for (const b of body) {
            const c = concat(p, b);
            if (c.exit === 'break') out.push({ tokens: c.tokens, choices: c.choices });
            else if (c.exit === 'return' || c.exit === 'throw') out.push(c);
            else {
              delete c.exit;
              next.push(c);
            }
          }
        }
        out.push(...next);
        running = checkCount(next);
      }
      return checkCount(out);
    }
    case 'parallel': {
      // A branch that is a loop (`xs.map(...)`) stands for 0, 1 or 2 branches of its body.
      const branches: Path[][] = [];
      for (const b of node.branches) {
        if (b.kind === 'loop') {
          const body = expand(b.body, oldPatches, deprecated);
          branches.push(checkCount([...one([]), ...body, ...body.flatMap((x) => body.map((y) => joinParallel([x, y], b.at)))]));
        } else branches.push(expand(b, oldPatches, deprecated));
      }
      let combos: Path[][] = [[]];
      for (const options of branches) {
        const next: Path[][] = [];
        for (const c of combos) for (const o of options) next.push([...c, o]);
        combos = next;
        if (combos.length > MAX_PATHS) throw new TooManyPaths();
      }
      return combos.map((c) => joinParallel(c, node.at));
    }
  }
}

/**
 * Branches started together: each issues its commands up to its first wait, in branch order, in one workflow task;
 * what follows their first waits interleaves by timing, so it is kept as one opaque token that matches only itself.
 */
function joinParallel(branches: Path[], at: ShapeLocation): Path {
  const out: Path = { tokens: [], choices: [] };
  const tails: string[] = [];
  for (const b of branches) {
    const firstWait = b.tokens.findIndex((t) => t.t === 'wait');
    const head = firstWait < 0 ? b.tokens : b.tokens.slice(0, firstWait);
    const offset = out.tokens.length;
    for (const t of head) push(out, t);
    for (const c of b.choices) out.choices.push({ ...c, index: c.index + offset });
    if (firstWait >= 0)
      tails.push(
        b.tokens
          .slice(firstWait)
          .map((t) => (t.t === 'cmd' || t.t === 'opaque' ? t.key : t.t === 'partial' ? `partial:${t.construct}` : 'wait'))
          .join(' '),
      );
  }
  if (tails.some((t) => t !== 'wait')) {
    const partial = branches.flatMap((b) => b.tokens).find((t) => t.t === 'partial');
    push(out, partial ?? { t: 'opaque', key: `parallel(${tails.join(' | ')})`, at });
  }
  return out;
}
