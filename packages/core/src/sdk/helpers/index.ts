/**
 * `@skein/core/sdk/helpers`: stateless helpers for libraries built on Skein, safe in workflow code and in Node
 * (no Node import, no state): `ComponentMetadata` (what `workflow()`, `step()` and `evaluator()` returned),
 * `Objects` (clone, plain-object test, deep merges) and `Path` (the directory of the calling file).
 */
import { definitionOf } from '../../shared/definition.js';
import { isPlainObject } from '../../shared/merge.js';

/** Facts about values returned by `workflow()`, `step()` and `evaluator()`. */
export const ComponentMetadata = {
  /** The definition's `name`, or undefined for anything else. */
  getName(fn: unknown): string | undefined {
    return definitionOf(fn)?.name;
  },
  /** Whether `fn` was returned by `workflow()`, `step()` or `evaluator()`. */
  has(fn: unknown): boolean {
    return definitionOf(fn) !== undefined;
  },
};

type Resolver = (a: unknown, b: unknown) => unknown;

function cloneDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneDeep);
  if (value !== null && typeof value === 'object') {
    if (value instanceof Date) return new Date(value.getTime());
    const out: Record<string, unknown> = {};
    // Own enumerable properties, getters read into plain values.
    for (const key of Object.keys(value)) out[key] = cloneDeep((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

function mergeInto(base: Record<string, unknown>, overlay: unknown, resolve: Resolver | undefined): Record<string, unknown> {
  if (!isPlainObject(overlay)) return base;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overlay)) {
    const prev = out[key];
    if (isPlainObject(prev) && isPlainObject(value)) out[key] = mergeInto(prev, value, resolve);
    else if (resolve && key in out) out[key] = resolve(prev, value);
    else out[key] = cloneDeep(value);
  }
  return out;
}

/** Tools for plain JavaScript objects. */
export const Objects = {
  /** A deep copy of `object`'s own enumerable properties (getters become plain values; arrays and dates copied). */
  clone<T extends object>(object: T): T {
    return cloneDeep(object) as T;
  },
  /** True for `{}`, `new Object()` and `Object.create(null)`; false for arrays, class instances, null. */
  isPlainObject(object: unknown): boolean {
    return isPlainObject(object);
  },
  /**
   * A new object: `overlays` merged into `base` from left to right, plain objects key by key, everything else
   * replaced. Overlays that are not plain objects are ignored.
   * @throws TypeError when `base` is not a plain object.
   */
  deepMerge(base: object, ...overlays: Array<object | null | undefined>): object {
    if (!isPlainObject(base)) throw new TypeError('Objects.deepMerge: base must be a plain object');
    return overlays.reduce<Record<string, unknown>>((acc, o) => mergeInto(acc, o, undefined), cloneDeep(base) as Record<string, unknown>);
  },
  /**
   * Like `deepMerge`, but a leaf present on both sides becomes `resolver(existing, incoming)`; the resolver is the
   * last argument.
   * @throws TypeError when `base` is not a plain object or the last argument is not a function.
   */
  deepMergeWithResolver(base: object, ...args: [...overlays: Array<object | null | undefined>, resolver: Resolver]): object {
    const resolver = args.at(-1);
    if (typeof resolver !== 'function') throw new TypeError('Objects.deepMergeWithResolver: the last argument must be a resolver function');
    if (!isPlainObject(base)) throw new TypeError('Objects.deepMergeWithResolver: base must be a plain object');
    const overlays = args.slice(0, -1) as Array<object | null | undefined>;
    return overlays.reduce<Record<string, unknown>>((acc, o) => mergeInto(acc, o, resolver as Resolver), cloneDeep(base) as Record<string, unknown>);
  },
};

/** Path fragments of frames that are never "the caller": Skein's own packages and the runtimes' internals. */
const IGNORED_FRAMES = ['/@skein/core/', '/packages/core/src/', '/packages/core/dist/', '/@outputai/', 'node:internal/', 'evalmachine.', 'webpack/bootstrap'];

/** File names of the current stack, innermost first, from V8's structured call sites (no text parsing). */
function stackFiles(): string[] {
  // Saved as is and put back unchanged (V8 calls it with `Error` as `this`, never through this reference).
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const original = Error.prepareStackTrace;
  try {
    Error.prepareStackTrace = (_err, sites) => sites;
    const sites = new Error().stack as unknown as Array<{ getFileName(): string | null | undefined }>;
    return (Array.isArray(sites) ? sites : []).map((s) => s.getFileName() ?? '').filter((f) => f !== '');
  } finally {
    Error.prepareStackTrace = original;
  }
}

/** Tools for file-system paths. */
export const Path = {
  /**
   * The directory of the file that called the function that called this one: the first stack frame outside
   * Skein's own packages, the runtimes' internals and `additionalIgnorePaths` (path fragments). A `file://`
   * URL is answered as a path.
   * @throws Error when every frame is ignored.
   */
  resolveInvocationDir(additionalIgnorePaths: string[] = []): string {
    const ignored = [...additionalIgnorePaths, ...IGNORED_FRAMES];
    const file = stackFiles().find((f) => !ignored.some((p) => f.replaceAll('\\', '/').includes(p)));
    if (!file) throw new Error('Path.resolveInvocationDir: no caller outside the ignored paths on the stack');
    const path = file.startsWith('file://') ? decodeURIComponent(file.slice('file://'.length)) : file;
    const sep = path.includes('\\') && !path.includes('/') ? '\\' : '/';
    return path.slice(0, path.lastIndexOf(sep));
  },
};
