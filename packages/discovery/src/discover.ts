/**
 * `discover()`: which workflows, steps, evaluators and shared activities a project serves, from which files,
 * read from package.json files and ASTs only (never importing or running package code).
 */
import { dirname, resolve } from 'node:path';
import { sharedActivities, workflowActivities } from './activities.js';
import { isSkippedDirName } from './conventions.js';
import { checkWorkflowNames as checkDefinitionNames, exportedDefinitions } from './definitions.js';
import { cmp, Diagnostics } from './diagnostics.js';
import { resolveEntry } from './entry.js';
import { cachingFileSystem, errorCode, nodeFileSystem, type FileSystem } from './fs.js';
import { ExportGraph } from './graph.js';
import { checkWorkflowImports, PackageProbe } from './imports.js';
import type { Definition } from './module-info.js';
import { checkWorkflowNames, resolveActivities, type SharedSource } from './namespaces.js';
import { keyPosition, listInstalledPackages, readManifest, type InstalledPackage } from './packages.js';
import { followEntry } from './reexports.js';
import { ModuleStore } from './store.js';
import type { DiscoverOptions, Manifest, PackageRef, WorkflowEntry } from './types.js';
import { walkFiles } from './walk.js';

const WORKFLOW_CALLEE = new Set(['workflow'] as const);

/** Everything one discovery run shares. */
interface Run {
  fs: FileSystem;
  diagnostics: Diagnostics;
  store: ModuleStore;
  graph: ExportGraph;
  probe: PackageProbe;
}

/** What one source (the project or one package) contributes. */
interface SourceResult {
  workflows: WorkflowEntry[];
  shared: SharedSource;
}

/**
 * Discovers the project at `projectRoot`: its own workflows (every `workflow.js` under the root, outside
 * `node_modules`, dot-directories, `dist` and exposed packages), the workflows of every installed package that
 * sets `"skein": { "workflows": { "expose": true } }` (SPEC rule 4) reached from its entry's static re-exports
 * (rules 2, 3), their steps and evaluators (rules 1, 9), the shared activities of the project and of each package
 * (rule 6), namespace checks (rules 7, 8) and activity types (rule 10).
 *
 * Order: `workflows` in registration order (the project's, by file, then each package's, packages by name);
 * `packages` by name; `sharedActivities` in registration order; `diagnostics` by file, line, column.
 * Never rejects for problems in the project or its packages: each is a diagnostic.
 */
export async function discover(projectRoot: string, options: DiscoverOptions = {}): Promise<Manifest> {
  const fs = cachingFileSystem(options.fs ?? nodeFileSystem);
  const diagnostics = new Diagnostics();
  const store = new ModuleStore(fs, options.maxFileBytes);
  const requested = resolve(projectRoot);
  let root: string;
  try {
    root = await fs.realpath(requested);
  } catch (error) {
    const code = errorCode(error);
    diagnostics.report(code === 'ELOOP' ? 'fs/symlink-loop' : 'fs/unreadable', requested, undefined, `Cannot read the project root ${requested} (${code}).`, 'Pass the directory that holds the project package.json.');
    return { root: requested, workflows: [], sharedActivities: [], packages: [], diagnostics: diagnostics.sorted(), filesRead: 0 };
  }
  await readManifest(fs, root, diagnostics, true);
  const installed = options.localOnly ? [] : await listInstalledPackages(fs, root, options.ceiling, new Set([root]), diagnostics);
  const exposed = installed.filter((p) => p.expose === 'exposed').sort((a, b) => cmp(a.name, b.name) || cmp(a.root, b.root));
  const probe = new PackageProbe(fs, new Map(installed.map((p) => [p.name, p])), new ExportGraph(store, new Diagnostics()));
  const run: Run = { fs, diagnostics, store, graph: new ExportGraph(store, diagnostics), probe };

  const [local, ...fromPackages] = await Promise.all([
    discoverLocal(run, root, new Set(exposed.map((p) => p.root))),
    ...exposed.map((pkg) => discoverPackage(run, pkg)),
  ]);
  const sources = [local as SourceResult, ...fromPackages];
  const workflows = sources.flatMap((s) => s.workflows);
  checkWorkflowNames(workflows, diagnostics);
  const shared = resolveActivities(workflows, sources.map((s) => s.shared), diagnostics);
  const packages: PackageRef[] = exposed.map(({ name, version, root: r }) => ({ name, version, root: r }));
  return { root, workflows, sharedActivities: shared, packages, diagnostics: diagnostics.sorted(), filesRead: store.filesRead };
}

/** The workflow definitions a `workflow.js` exports, reporting none (`workflow/no-definition`) and several. */
async function definitionsOf(run: Run, file: string): Promise<{ exportName: string; definition: Definition }[]> {
  const info = await run.graph.module(file);
  if (!info) return [];
  const defs = exportedDefinitions(info, WORKFLOW_CALLEE);
  if (defs.length === 0) {
    run.diagnostics.report('workflow/no-definition', file, undefined, `${file} exports no workflow({ ... }) definition.`, "Export one: export default workflow({ name: 'greet', fn: async (input) => ... }).");
  }
  for (const extra of defs.slice(1)) {
    run.diagnostics.report('workflow/multiple-definitions', file, extra.definition.position, `${file} exports more than one workflow; only the first ('${defs[0]?.exportName}') is registered.`, 'Put each workflow in its own folder with its own workflow.js, steps and evaluators.');
  }
  await checkWorkflowImports(info, run.probe, run.diagnostics);
  return defs.slice(0, 1);
}

/** Builds a manifest entry from a definition, or undefined when its name is unusable (reported). */
async function entryOf(run: Run, file: string, definition: Definition, exportName: string, localExport: string, pkg: PackageRef | null): Promise<WorkflowEntry | undefined> {
  const names = checkDefinitionNames(definition, file, run.diagnostics);
  if (!names) return undefined;
  const activities = await workflowActivities(run.fs, run.store, dirname(file), run.diagnostics);
  return { name: names.name, aliases: names.aliases, file, line: definition.position.line, column: definition.position.column, package: pkg, exportName, localExport, activities, activityTypes: [] };
}

/** The project's own workflows and shared activities. */
async function discoverLocal(run: Run, root: string, packageRoots: ReadonlySet<string>): Promise<SourceResult> {
  const files = await walkFiles(run.fs, root, { skipDir: (name, real) => isSkippedDirName(name, true) || packageRoots.has(real), wantFile: (name) => name === 'workflow.js' }, run.diagnostics);
  const [perFile, shared] = await Promise.all([
    Promise.all(
      files.map(async (file) => {
        const [first] = await definitionsOf(run, file);
        return first ? entryOf(run, file, first.definition, first.exportName, first.exportName, null) : undefined;
      }),
    ),
    sharedActivities(run.fs, run.store, root, run.diagnostics),
  ]);
  return { workflows: perFile.filter((w): w is WorkflowEntry => w !== undefined), shared: { package: null, activities: shared } };
}

/** One exposed package's workflows (reached from its entry) and shared activities. */
async function discoverPackage(run: Run, pkg: InstalledPackage): Promise<SourceResult> {
  const ref: PackageRef = { name: pkg.name, version: pkg.version, root: pkg.root };
  const sharedPromise = sharedActivities(run.fs, run.store, pkg.root, run.diagnostics);
  const entry = await resolveEntry(run.fs, pkg.root, pkg.json);
  if (!entry.ok) {
    const key = pkg.json.exports !== undefined ? 'exports' : 'main';
    run.diagnostics.report('entry/not-found', pkg.manifest, keyPosition(pkg.text, key), `${pkg.name} exposes workflows but its entry point cannot be resolved: ${entry.reason}.`, 'Point "exports" (or "main") at an ES module that re-exports the workflows, e.g. "exports": { ".": "./index.js" }.');
    return { workflows: [], shared: { package: ref, activities: await sharedPromise } };
  }
  const [workflows, shared] = await Promise.all([packageWorkflows(run, pkg, ref, entry.file), sharedPromise]);
  return { workflows, shared: { package: ref, activities: shared } };
}

/**
 * The workflows a package entry reaches (sorted by file), reporting `workflow.js` files of the package that it does
 * not reach (`conventions/unreachable-workflow`).
 */
async function packageWorkflows(run: Run, pkg: InstalledPackage, ref: PackageRef, entryFile: string): Promise<WorkflowEntry[]> {
  const allWorkflowFiles = walkFiles(run.fs, pkg.root, { skipDir: (name) => isSkippedDirName(name, false), wantFile: (name) => name === 'workflow.js' }, run.diagnostics);
  const isWorkflowSpecifier = (specifier: string): boolean => /(^|\/)workflow(\.js)?$/.test(specifier) || (run.probe.packageOf(specifier)?.pkg.expose ?? 'absent') !== 'absent';
  const reach = await followEntry(run.graph, entryFile, isWorkflowSpecifier);
  const reached = new Set([...reach.workflowFiles, ...reach.workflows.map((w) => w.file)]);
  // The registered definition of each file is its first one (others are `workflow/multiple-definitions`).
  const firstOf = new Map<string, string | undefined>();
  await Promise.all(
    [...reached].map(async (file) => {
      const [first] = await definitionsOf(run, file);
      firstOf.set(file, first?.exportName);
    }),
  );
  const entries = await Promise.all(
    reach.workflows.filter((w) => firstOf.get(w.file) === w.localExport).map((w) => entryOf(run, w.file, w.definition, w.exportName, w.localExport, ref)),
  );
  const byFile = new Map<string, WorkflowEntry>();
  for (const e of entries) if (e && !byFile.has(e.file)) byFile.set(e.file, e);
  for (const file of await allWorkflowFiles) {
    if (reached.has(file)) continue;
    run.diagnostics.report('conventions/unreachable-workflow', file, undefined, `${file} looks like a workflow but is not reachable from the entry point of ${pkg.name}; it is not registered.`, `Re-export it from the package entry: export { default as <name> } from './${file.slice(pkg.root.length + 1)}'.`);
  }
  return [...byFile.values()].sort((a, b) => cmp(a.file, b.file));
}
