/**
 * Reading dependency maps out of an untrusted package.json (any field may have any type).
 */

export type DependencyField = 'dependencies' | 'optionalDependencies' | 'peerDependencies' | 'devDependencies';

/** The four dependency maps of a package.json, each `{}` when absent or malformed; values are version ranges. */
export function dependencyFields(pkg: Record<string, unknown>): Record<DependencyField, Record<string, string>> {
  const read = (field: DependencyField): Record<string, string> => {
    const v = pkg[field];
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    const out: Record<string, string> = {};
    for (const [k, range] of Object.entries(v as Record<string, unknown>)) out[k] = String(range);
    return out;
  };
  return {
    dependencies: read('dependencies'),
    optionalDependencies: read('optionalDependencies'),
    peerDependencies: read('peerDependencies'),
    devDependencies: read('devDependencies'),
  };
}
