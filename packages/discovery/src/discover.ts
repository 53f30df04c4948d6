/**
 * `discover()`: which workflows, steps, evaluators and shared activities a project or package serves, from which
 * files, read from package.json files and ASTs only (never importing or running package code).
 */
import { dirname, join, relative, resolve, sep } from 'node:path';
import { noteNestedActivityFolders, sharedActivities, workflowActivities } from './activities.js';
import { classifyFile, isSkippedDirName, sharedFolderOf } from './conventions.js';
import { checkWorkflowNames as checkDefinitionNames, exportedDefinitions } from './definitions.js';
import { cmp, Diagnostics } from './diagnostics.js';
import { errorCode, isInside, type FileSystem } from './fs.js';
import { ExportGraph } from './graph.js';
import { checkWorkflowImports, PackageProbe } from './imports.js';
import { layoutOf } from './layout.js';
import type { Definition } from './module-info.js';
import { checkWorkflowNames, resolveActivities, type SharedSource } from './namespaces.js';
import { keyPosition } from './json-position.js';
import {
  checkPackageFlag,
  findInstalledPackage,
  intendsWorkflowPackage,
  listInstalledPackages,
  readManifest,
  toInstalledPackage,
  type InstalledPackage,
} from './packages.js';
import type { PackageFacts } from './package-facts.js';
import { twinOf } from './module-path.js';
import { followEntry } from './reexports.js';
import { createSession, packageFactsOf, type AnalysisSession } from './session.js';
import type { ModuleStore } from './store.js';
import type { Manifest, PackageRef, WorkflowEntry } from './types.js';
import { walkFiles } from './walk.js';

/** Options of `discover()`. */
export interface DiscoverOptions {
  /** Maximum size of one source file in bytes; larger files get a diagnostic and are not parsed. Default 1 MiB. */
  maxFileBytes?: number;
  /** Skip `node_modules` packages (only the project's own workflows). Default false. */
  localOnly?: boolean;
  /**
   * The highest directory whose `node_modules` is searched (hoisted installs, package rule 4). Default: the file-system
   * root. Tests set it to keep an enclosing repository's `node_modules` out.
   */
  ceiling?: string;
  /** The file system to read through. Default: `nodeFileSystem`. Ignored when `session` is given. */
  fs?: FileSystem;
  /**
   * `project` (default): the root is a project; `package`: the root is a workflow package judged as a worker would
   * see it once installed (strict expose flag, workflows from its entry); `auto`: package mode when the root's
   * package.json sets or misspells the expose flag.
   */
  mode?: 'project' | 'package' | 'auto';
  /** A session to share with a caller that keeps analysing afterwards (the validator). Default: a new one. */
  session?: AnalysisSession;
}

const WORKFLOW_KINDS = new Set(['workflow'] as const);
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
  /** Why there are none, when there are none (for `conventions/no-workflows`). */
  convention: { workflowFiles: number };
  /** The package's entry could not be resolved (`entry/not-found` says so, and why none of its workflows is served). */
  entryUnresolved?: true;
}

/**
 * Discovers the project (or, in package mode, the package) at `projectRoot`.
 *
 * Project mode (default): its own workflows (every `workflow.{ts,mts,js,mjs}` under the root outside `node_modules`,
 * dot-folders, test folders, the unjudged side of a compiled layout (see layout.ts) and exposed packages), the
 * workflows of every installed package that sets `"skein": { "workflows": { "expose": true } }` (package rule 4)
 * reached from its entry's static re-exports (rules 2, 3), their steps and evaluators (rules 1, 9), shared
 * activities of the project and of each package at any depth (`src/shared/steps/*.ts`, rule 6), namespace checks
 * (rules 7, 8) and activity types (rule 10).
 *
 * Package mode (`mode: 'package'`): the root is judged as the installed, exposed package a worker would see:
 * workflows are those its entry reaches; a missing, misspelled or non-boolean expose flag is an error
 * (`package/not-exposed`); installed packages are consulted only to check imports. `auto` picks package mode when
 * the root's package.json carries (or misspells) the expose flag.
 *
 * Either mode reports zero workflows as `conventions/no-workflows`, saying why.
 * Order: `workflows` in registration order (the project's, by file, then each package's, packages by name);
 * `packages` by name; `sharedActivities` in registration order; `diagnostics` by file, line, column.
 * Never rejects for problems in the project or its packages: each is a diagnostic.
 */
export async function discover(projectRoot: string, options: DiscoverOptions = {}): Promise<Manifest> {
  const session: AnalysisSession = options.session ?? createSession({ fs: options.fs, maxFileBytes: options.maxFileBytes });
  const { fs, store, diagnostics } = session;
  const requested = resolve(projectRoot);
  let root: string;
  try {
    root = fs.realpath(requested);
  } catch (error) {
    const code = errorCode(error);
    diagnostics.report(code === 'ELOOP' ? 'fs/symlink-loop' : 'fs/unreadable', 'projectRoot', requested, undefined, { dir: requested, code });
    return {
      root: requested,
      mode: options.mode === 'package' ? 'package' : 'project',
      workflows: [],
      sharedActivities: [],
      packages: [],
      diagnostics: diagnostics.sorted(),
      filesRead: store.filesRead,
    };
  }
  const manifest = readManifest(fs, root, diagnostics, true);
  const rootPackage = manifest.ok ? toInstalledPackage(root, manifest.json, manifest.text) : undefined;
  const packageMode = options.mode === 'package' || (options.mode === 'auto' && manifest.ok && intendsWorkflowPackage(manifest.json));
  // A project serves every exposed installed package, so it lists them all. In package mode the installed packages
  // only answer the import checks of workflow code (their own problems are not the package's): each is looked up by
  // name when an import names it.
  const installed = options.localOnly || packageMode ? [] : listInstalledPackages(fs, root, options.ceiling, new Set([root]), diagnostics);
  const exposed = installed.filter((p) => p.expose === 'exposed').sort((a, b) => cmp(a.name, b.name) || cmp(a.root, b.root));
  const byName = new Map<string, InstalledPackage | undefined>(installed.map((p) => [p.name, p]));
  const packageNamed = (name: string): InstalledPackage | undefined => {
    if (!packageMode || options.localOnly || byName.has(name)) return byName.get(name);
    const found = findInstalledPackage(fs, root, options.ceiling, new Set([root]), name);
    byName.set(name, found);
    return found;
  };
  const probe = new PackageProbe(fs, packageNamed, new ExportGraph(store, new Diagnostics()));
  const run: Run = { fs, diagnostics, store, graph: new ExportGraph(store, diagnostics), probe };

  // Each root's package facts (package.json, entry, layout, files) are worked out once, here, and kept on the
  // session for the validator.
  const rootRead = manifest.ok ? { json: manifest.json, text: manifest.text } : null;
  const factsOf = (pkg: InstalledPackage) => packageFactsOf(session, pkg.root, true, { json: pkg.json, text: pkg.text });
  let sources: SourceResult[];
  if (packageMode) {
    const pkg = rootPackage ?? toInstalledPackage(root, {}, '');
    session.ownRoots = [root];
    if (manifest.ok) reportNotExposed(run, pkg);
    const facts = packageFactsOf(session, root, true, rootRead);
    noteWorkflowFolders(run, facts.files);
    sources = [discoverPackage(run, pkg, facts)];
  } else {
    session.ownRoots = [root, ...exposed.map((p) => p.root)];
    const rootFacts = packageFactsOf(session, root, null, rootRead);
    const exposedFacts = exposed.map(factsOf);
    // Each source's nested activity folders are noted before any module is read (the project's own in
    // `discoverLocal`, after its walk): the project's workflows may import the packages' workflows (children) and read
    // them first.
    for (const facts of exposedFacts) noteWorkflowFolders(run, facts.files);
    sources = [discoverLocal(run, rootFacts, new Set(exposed.map((p) => p.root))), ...exposed.map((pkg, i) => discoverPackage(run, pkg, exposedFacts[i]!))];
  }
  const workflows = sources.flatMap((s) => s.workflows);
  checkWorkflowNames(workflows, diagnostics);
  const shared = resolveActivities(
    workflows,
    sources.map((s) => s.shared),
    diagnostics,
  );
  // A package whose entry cannot be resolved serves nothing: `entry/not-found` is the one finding of that.
  if (workflows.length === 0 && !(packageMode && sources.some((s) => s.entryUnresolved))) reportNoWorkflows(run, root, packageMode, sources);
  const packages: PackageRef[] = (packageMode ? [] : exposed).map(({ name, version, root: r }) => ({ name, version, root: r }));
  return {
    root,
    mode: packageMode ? 'package' : 'project',
    workflows,
    sharedActivities: shared,
    packages,
    diagnostics: diagnostics.sorted(),
    filesRead: store.filesRead,
  };
}

/** Package mode: a root whose expose flag is missing, misspelled or not the boolean true (package rule 4, strictly). */
function reportNotExposed(run: Run, pkg: InstalledPackage): void {
  if (pkg.expose === 'exposed') return;
  const problem = checkPackageFlag(pkg.json) ?? 'it has no "skein" key';
  const at = keyPosition(pkg.text, problem.startsWith('"') ? problem.slice(1, problem.indexOf('"', 1)) : 'skein') ?? keyPosition(pkg.text, 'name');
  run.diagnostics.report('package/not-exposed', 'notExposed', pkg.manifest, at, { name: pkg.name, problem });
}

/** Zero workflows is an error that says why: no convention files at all, or none reachable from the entry. */
function reportNoWorkflows(run: Run, root: string, packageMode: boolean, sources: SourceResult[]): void {
  const files = sources.reduce((n, s) => n + s.convention.workflowFiles, 0);
  const what = packageMode ? 'package' : 'project';
  const why =
    files === 0
      ? `no workflow file (workflow.ts, workflow.mts, workflow.js or workflow.mjs) was found under ${root}`
      : packageMode
        ? `its ${files} workflow file(s) are not reachable from the package entry, or define no usable workflow`
        : `its ${files} workflow file(s) define no usable workflow`;
  const fix = packageMode
    ? "Put each workflow in <folder>/workflow.ts (or .js) and re-export it from the entry: export { default as greet } from './greet/workflow.js'."
    : "Put each workflow in <folder>/workflow.ts (or .js) as its default export: export default workflow({ name: 'greet', fn: async (input) => ... }).";
  run.diagnostics.report('conventions/no-workflows', 'none', join(root, 'package.json'), undefined, { what, why, fix });
}

/**
 * The registered workflow definition of a `workflow.js`: the first it exports. Reports none (`workflow/no-definition`)
 * and several (`workflow/multiple-definitions`), and checks the file's imports. One definition exported under several
 * names (`export const greet = workflow({...})` and `export default greet`) is one workflow, registered under the
 * first name.
 */
function firstDefinitionOf(run: Run, file: string): { exportName: string; definition: Definition } | undefined {
  const info = run.graph.module(file);
  if (!info) return undefined;
  const defs = exportedDefinitions(info, WORKFLOW_KINDS).filter((d, i, all) => all.findIndex((e) => sameCall(e.definition, d.definition)) === i);
  if (defs.length === 0) {
    run.diagnostics.report('workflow/no-definition', 'none', file, undefined, { file });
  }
  for (const extra of defs.slice(1)) {
    run.diagnostics.report('workflow/multiple-definitions', 'several', file, extra.definition.position, { file, first: defs[0]?.exportName ?? '' });
  }
  checkWorkflowImports(info, run.probe, run.diagnostics);
  return defs[0];
}

/** Whether two definitions of one module are the same call (two exports of one call share its position). */
function sameCall(a: Definition | undefined, b: Definition): boolean {
  return a !== undefined && a.position.line === b.position.line && a.position.column === b.position.column;
}

/** Builds a manifest entry from a definition, or undefined when its name is unusable (reported). */
function entryOf(run: Run, file: string, definition: Definition, exportName: string, localExport: string, pkg: PackageRef | null): WorkflowEntry | undefined {
  const names = checkDefinitionNames(definition, file, run.diagnostics);
  if (!names) return undefined;
  const activities = workflowActivities(run.fs, run.store, dirname(file), run.diagnostics);
  return {
    name: names.name,
    aliases: names.aliases,
    file,
    line: definition.position.line,
    column: definition.position.column,
    package: pkg,
    exportName,
    localExport,
    activities,
    activityTypes: [],
  };
}

/**
 * The workflow files among `files` (convention files, sorted as given), and the shared activity folders: each
 * `shared/steps/` or `shared/evaluators/` folder holding a shared activity file, directly or in folders nested in it.
 */
function conventionFiles(files: readonly string[]): { workflowFiles: string[]; sharedFolders: string[] } {
  const workflowFiles: string[] = [];
  const sharedFolders = new Set<string>();
  for (const file of files) {
    const role = classifyFile(file);
    if (role === 'workflow') workflowFiles.push(file);
    else if (role === 'shared-steps' || role === 'shared-evaluators') sharedFolders.add(sharedFolderOf(file)!);
  }
  return { workflowFiles, sharedFolders: [...sharedFolders] };
}

/**
 * Notes the nested activity folders of the workflows among `files` (`noteNestedActivityFolders`): called once per
 * source, before any of its modules is read, so the files below them are steps and evaluators files for every reader.
 */
function noteWorkflowFolders(run: Run, files: readonly string[]): void {
  for (const file of files) if (classifyFile(file) === 'workflow') noteNestedActivityFolders(run.fs, dirname(file));
}

/** A convention file (a shared activity file nested in folders of its shared folder included). */
const isConventionPath = (file: string): boolean => classifyFile(file) !== null;

/** Files under `root` on the judged side of `layout`, folders for which `skip` holds left out: a walk of their own. */
function walkConventionFiles(run: Run, root: string, skip: (real: string) => boolean): string[] {
  return walkFiles(
    run.fs,
    root,
    { skipDir: (name, real) => isSkippedDirName(name) || skip(real), wantFile: (_name, path) => isConventionPath(path) },
    run.diagnostics,
  );
}

/**
 * The project's own workflows and shared activities: the convention files of the root's file list outside the
 * exposed packages (which may be folders of the project, linked into `node_modules` as workspaces), on the judged
 * side of the project's layout. A root that is itself an exposed package has its list decided by its entry's
 * layout (what it publishes), while the project serves its sources: that root alone is walked again for them.
 */
function discoverLocal(run: Run, facts: PackageFacts, packageRoots: ReadonlySet<string>): SourceResult {
  const root = facts.root;
  const insidePackage = (file: string) => [...packageRoots].some((pkgRoot) => pkgRoot !== root && isInside(pkgRoot, file));
  let files: string[];
  if (facts.entry === undefined) files = facts.files.filter((file) => isConventionPath(file) && !insidePackage(file));
  else {
    const layout = layoutOf(run.fs, root);
    files = walkConventionFiles(run, root, (real) => packageRoots.has(real) || layout.skipped.has(real));
  }
  noteWorkflowFolders(run, files);
  const { workflowFiles, sharedFolders } = conventionFiles(files);
  const perFile = workflowFiles.map((file) => {
    const first = firstDefinitionOf(run, file);
    return first ? entryOf(run, file, first.definition, first.exportName, first.exportName, null) : undefined;
  });
  const shared = sharedActivities(run.fs, run.store, sharedFolders, run.diagnostics);
  return {
    workflows: perFile.filter((w): w is WorkflowEntry => w !== undefined),
    shared: { package: null, activities: shared },
    convention: { workflowFiles: workflowFiles.length },
  };
}

/** One exposed package's workflows (reached from its entry) and shared activities, from its facts. */
function discoverPackage(run: Run, pkg: InstalledPackage, facts: PackageFacts): SourceResult {
  const ref: PackageRef = { name: pkg.name, version: pkg.version, root: pkg.root };
  const entry = facts.entry ?? { ok: false as const, reason: 'not judged as a published package' };
  const { workflowFiles, sharedFolders } = conventionFiles(facts.files);
  const shared = { package: ref, activities: sharedActivities(run.fs, run.store, sharedFolders, run.diagnostics) };
  if (!entry.ok) {
    const key = pkg.json.exports !== undefined ? 'exports' : 'main';
    const at = keyPosition(pkg.text, key);
    if (entry.unbuilt !== undefined)
      run.diagnostics.report('entry/not-found', 'unbuilt', pkg.manifest, at, { name: pkg.name, reason: entry.reason, folder: entry.unbuilt });
    else run.diagnostics.report('entry/not-found', 'unresolved', pkg.manifest, at, { name: pkg.name, reason: entry.reason });
    return { workflows: [], shared, convention: { workflowFiles: workflowFiles.length }, entryUnresolved: true };
  }
  return { workflows: packageWorkflows(run, pkg, ref, entry.file, workflowFiles), shared, convention: { workflowFiles: workflowFiles.length } };
}

/**
 * The workflows a package entry reaches (sorted by file), reporting workflow files of the package that it does
 * not reach (`conventions/unreachable-workflow`).
 */
function packageWorkflows(run: Run, pkg: InstalledPackage, ref: PackageRef, entryFile: string, allWorkflowFiles: string[]): WorkflowEntry[] {
  const isWorkflowSpecifier = (specifier: string): boolean =>
    /(^|\/)workflow(\.[mc]?[jt]s)?$/.test(specifier) || (run.probe.packageOf(specifier)?.pkg.expose ?? 'absent') !== 'absent';
  const reach = followEntry(run.graph, entryFile, isWorkflowSpecifier);
  const reached = new Set([...reach.workflowFiles, ...reach.workflows.map((w) => w.file)]);
  // The registered definition of each file is its first one (others are `workflow/multiple-definitions`), under
  // whichever of its export names the entry reaches it by.
  const firstOf = new Map<string, Definition | undefined>();
  for (const file of reached) firstOf.set(file, firstDefinitionOf(run, file)?.definition);
  const entries = reach.workflows
    .filter((w) => sameCall(firstOf.get(w.file), w.definition))
    .map((w) => entryOf(run, w.file, w.definition, w.exportName, w.localExport, ref));
  const byFile = new Map<string, WorkflowEntry>();
  for (const e of entries) if (e && !byFile.has(e.file)) byFile.set(e.file, e);
  // A source shipped beside its compiled file (`w/workflow.ts` next to a reached `w/workflow.js`) is the same workflow.
  const reachedSources = new Set([...reached].map(twinOf));
  for (const file of allWorkflowFiles) {
    if (reached.has(file) || reachedSources.has(file)) continue;
    run.diagnostics.report('conventions/unreachable-workflow', 'unreachable', file, undefined, {
      file,
      pkg: pkg.name,
      specifier: entrySpecifier(entryFile, file),
    });
  }
  return [...byFile.values()].sort((a, b) => cmp(a.file, b.file));
}

/** The relative specifier the entry `entryFile` would re-export `file` by (`./greet/workflow.js`; `.ts` written `.js`). */
function entrySpecifier(entryFile: string, file: string): string {
  const rel = relative(dirname(entryFile), file)
    .split(sep)
    .join('/')
    .replace(/\.([mc]?)ts$/, '.$1js');
  return rel.startsWith('../') ? rel : `./${rel}`;
}
