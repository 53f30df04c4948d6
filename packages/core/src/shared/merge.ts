/**
 * Deep merge used for activity options layering (docs/package-rules.md, rule 11): plain objects merge key by key,
 * arrays and every other value replace. `undefined` values never override.
 */
export function deepMerge<T extends object>(...layers: Array<Partial<T> | undefined | null>): T {
  const out: Record<string, unknown> = {};
  for (const layer of layers) {
    if (!layer) continue;
    for (const [key, value] of Object.entries(layer)) {
      if (value === undefined) continue;
      const prev = out[key];
      out[key] = isPlainObject(prev) && isPlainObject(value) ? deepMerge(prev, value) : cloneValue(value);
    }
  }
  return out as T;
}

function cloneValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice();
  if (isPlainObject(value)) return deepMerge(value);
  return value;
}

/** True for `{}`-like objects (not arrays, dates, class instances or null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
