import { statSync } from 'node:fs';
import { sha1 } from '../cache/file-digests.js';

/**
 * A stable text form of any value for hashing: object keys sorted, functions by their source text, regular
 * expressions by source and flags, class instances by constructor name and own enumerable fields, Maps and
 * Sets by entries. Cycles print as `[cycle]`. Used to key the bundle cache on the full bundler options,
 * whatever a webpack configuration hook adds to them.
 */
export function stableText(value: unknown): string {
  const seen = new Set<object>();
  const walk = (v: unknown): string => {
    if (v === undefined) return 'undefined';
    if (v === null || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return JSON.stringify(v);
    if (typeof v === 'bigint') return `${v}n`;
    if (typeof v === 'symbol') return v.toString();
    if (typeof v === 'function') return `fn:${v.toString()}`;
    if (v instanceof RegExp) return `re:${v.toString()}`;
    if (seen.has(v)) return '[cycle]';
    seen.add(v);
    try {
      if (Array.isArray(v)) return `[${v.map(walk).join(',')}]`;
      if (v instanceof Map) return `Map${walk([...v.entries()])}`;
      if (v instanceof Set) return `Set${walk([...v.values()])}`;
      const proto = Object.getPrototypeOf(v) as { constructor?: { name?: string } } | null;
      const tag = proto && proto !== Object.prototype ? `${proto.constructor?.name ?? 'anonymous'}` : '';
      const keys = Object.keys(v).sort();
      return `${tag}{${keys.map((k) => `${JSON.stringify(k)}:${walk((v as Record<string, unknown>)[k])}`).join(',')}}`;
    } finally {
      seen.delete(v);
    }
  };
  return walk(value);
}

/** SHA-1 (hex) of a string or buffer (`sha1`, under the name the bundle code uses). */
export const digest = sha1;

/** What is at a path: `file`, `dir`, `other`, or `none` (synchronous: a cache check stats thousands of paths, one syscall each). */
export function pathKind(file: string): 'file' | 'dir' | 'other' | 'none' {
  try {
    const s = statSync(file, { throwIfNoEntry: false });
    return !s ? 'none' : s.isFile() ? 'file' : s.isDirectory() ? 'dir' : 'other';
  } catch {
    return 'none';
  }
}
