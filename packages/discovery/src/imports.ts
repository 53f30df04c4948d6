/**
 * Checks on how workflow code imports workflows (package rules 3 and 4): no namespace imports of a workflow
 * package or workflow file, and no named import of a workflow from a package that is not exposed (which would
 * fail at runtime with "workflow does not exist").
 */
import { classifyFile } from './conventions.js';
import { kindOf } from './definitions.js';
import type { Diagnostics } from './diagnostics.js';
import { resolveEntry } from './entry.js';
import type { FileSystem } from './fs.js';
import type { ExportGraph } from './graph.js';
import { isRelative } from './module-path.js';
import { isAuthoringSource, type ModuleInfo } from './module-info.js';
import { findNestedInstall, type InstalledPackage } from './packages.js';
import { PACKAGE_JSON_KEY } from '@skein/names';

/** `name` and `./subpath` of a bare specifier (`@scope/pkg/x` → `@scope/pkg`, `./x`), or undefined. */
export function splitBareSpecifier(specifier: string): { name: string; subpath: string } | undefined {
  if (isRelative(specifier) || specifier.startsWith('/') || specifier.includes(':')) return undefined;
  const parts = specifier.split('/');
  const count = specifier.startsWith('@') ? 2 : 1;
  if (parts.length < count || parts.slice(0, count).some((p) => p === '')) return undefined;
  const rest = parts.slice(count).join('/');
  return { name: parts.slice(0, count).join('/'), subpath: rest ? `./${rest}` : '.' };
}

/** Answers "does this import reach a workflow" for installed packages, without reporting their problems. */
export class PackageProbe {
  readonly #entries = new Map<string, string | undefined>();
  readonly #names = new Map<string, boolean>();

  constructor(
    readonly fs: FileSystem,
    /** The installed package of a name (a bare specifier's package name), if any. */
    readonly packageNamed: (name: string) => InstalledPackage | undefined,
    /** A graph whose diagnostics are discarded: another package's problems are not the project's findings. */
    readonly graph: ExportGraph,
  ) {}

  /**
   * The installed package a bare specifier names, with its subpath: as the project resolves it, or, for an import
   * written in `from` (a file of an installed package), the install nearer to that file when there is one (`nested`
   * then says the project's lookup answers another install, or none).
   */
  packageOf(specifier: string, from?: string): { pkg: InstalledPackage; subpath: string; nested?: true } | undefined {
    const split = splitBareSpecifier(specifier);
    if (!split) return undefined;
    const pkg = this.packageNamed(split.name);
    const near = from === undefined ? undefined : findNestedInstall(this.fs, from, split.name);
    if (near && near.root !== pkg?.root) return { pkg: near, subpath: split.subpath, nested: true };
    return pkg ? { pkg, subpath: split.subpath } : undefined;
  }

  /** The entry file of `pkg` for `subpath`, if it resolves. */
  entry(pkg: InstalledPackage, subpath: string): string | undefined {
    const key = `${pkg.root}\0${subpath}`;
    if (!this.#entries.has(key)) {
      const r = resolveEntry(this.fs, pkg.root, pkg.json, subpath);
      this.#entries.set(key, r.ok ? r.file : undefined);
    }
    return this.#entries.get(key);
  }

  /** True when export `name` of the package's `subpath` entry resolves to a `workflow()` definition. */
  exportIsWorkflow(pkg: InstalledPackage, subpath: string, name: string): boolean {
    const key = `${pkg.root}\0${subpath}\0${name}`;
    let found = this.#names.get(key);
    if (found === undefined) {
      found = (() => {
        const entry = this.entry(pkg, subpath);
        if (!entry) return false;
        const r = this.graph.resolveExport(entry, name);
        return r?.kind === 'definition' && kindOf(r.definition, r.file) === 'workflow';
      })();
      this.#names.set(key, found);
    }
    return found;
  }

  /** True when the package is exposed, or any export of its `subpath` entry is a workflow. */
  isWorkflowPackage(pkg: InstalledPackage, subpath: string): boolean {
    if (pkg.expose === 'exposed') return true;
    const entry = this.entry(pkg, subpath);
    if (!entry) return false;
    for (const name of this.graph.exportNames(entry)) {
      if (this.exportIsWorkflow(pkg, subpath, name)) return true;
    }
    return false;
  }
}

/** True when a specifier from `file` names a workflow file or a workflow package. */
function isWorkflowTarget(file: string, specifier: string, probe: PackageProbe): boolean {
  if (isRelative(specifier)) return classifyFile(probe.graph.resolvePath(file, specifier)) === 'workflow';
  const found = probe.packageOf(specifier);
  return found !== undefined && probe.isWorkflowPackage(found.pkg, found.subpath);
}

/**
 * Reports, for one workflow file: `imports/dynamic` for `import()` of a workflow package or workflow file,
 * `imports/namespace` for `import * as x` of a workflow package or workflow
 * file, `package/no-expose-flag` for each workflow imported by name from a package that is not exposed, and
 * `package/nested-install` for each one imported from an exposed package installed nearer to the importing file than
 * the project's `node_modules` (discovery serves only what the project itself resolves).
 */
export function checkWorkflowImports(info: ModuleInfo, probe: PackageProbe, diagnostics: Diagnostics): void {
  for (const form of info.unsupported) {
    if (form.kind !== 'dynamic-import' || !isWorkflowTarget(info.file, form.source, probe)) continue;
    // A workflow file exports its workflow as its default export; a package, by name.
    const file = isRelative(form.source) && classifyFile(probe.graph.resolvePath(info.file, form.source)) === 'workflow';
    const importForm = file ? `import greet from '${form.source}'` : `import { greet } from '${form.source}'`;
    diagnostics.report('imports/dynamic', 'dynamic', info.file, form.position, { source: form.source, form: importForm });
  }
  for (const decl of info.imports) {
    const namespace = decl.specifiers.find((s) => s.imported === '*');
    if (isRelative(decl.source)) {
      if (namespace && classifyFile(probe.graph.resolvePath(info.file, decl.source)) === 'workflow') {
        diagnostics.report('imports/namespace', 'file', info.file, namespace.position, { local: namespace.local, source: decl.source });
      }
      continue;
    }
    if (isAuthoringSource(decl.source)) continue;
    const found = probe.packageOf(decl.source, info.file);
    if (!found) continue;
    const { pkg, subpath, nested } = found;
    if (namespace) {
      if (probe.isWorkflowPackage(pkg, subpath)) {
        diagnostics.report('imports/namespace', 'package', info.file, namespace.position, { local: namespace.local, source: decl.source, pkg: pkg.name });
      }
      continue;
    }
    if (pkg.expose === 'exposed' && !nested) continue;
    for (const s of decl.specifiers) {
      if (!probe.exportIsWorkflow(pkg, subpath, s.imported)) continue;
      const what = s.imported === 'default' ? `'${s.local}' (the default export of '${decl.source}')` : `'${s.imported}' imported from '${decl.source}'`;
      if (pkg.expose === 'exposed') {
        const served = probe.packageOf(decl.source);
        const data = { what, pkg: pkg.name, version: pkg.version, dir: pkg.root };
        if (served) diagnostics.report('package/nested-install', 'shadowed', info.file, s.position, { ...data, served: served.pkg.version });
        else diagnostics.report('package/nested-install', 'unserved', info.file, s.position, data);
        continue;
      }
      const state =
        pkg.expose === 'invalid'
          ? `sets "${PACKAGE_JSON_KEY}.workflows.expose" to something other than the boolean true`
          : `does not set "${PACKAGE_JSON_KEY}": { "workflows": { "expose": true } }`;
      diagnostics.report('package/no-expose-flag', 'notExposed', info.file, s.position, { what, pkg: pkg.name, state, manifest: pkg.manifest });
    }
  }
}
