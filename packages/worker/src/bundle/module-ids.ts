/**
 * Module ids and module order of the workflow bundle that do not depend on where anything sits on disk, so that one
 * project's code gives one bundle (and one build ID) whatever the machine, the project's folder, the bundle cache's
 * folder or a temporary folder (the bundle cache off).
 * - Ids: webpack's own `moduleIds: 'deterministic'` hashes each module's path relative to the context, the project
 *   root, which still leaves in every path outside it (the generated entry in the bundle cache or a temporary
 *   folder, `node_modules` linked from elsewhere, Skein's own packages).
 * - Order: webpack writes a chunk's modules sorted by their absolute paths, so the generated entry in
 *   `<project>/.skein/bundles/work` and in `/tmp/skein-bundle-…` sat at two different places of the same bundle.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The parts of webpack's compiler, compilation and modules this plugin touches. */
interface Compiler {
  hooks: { compilation: { tap(name: string, fn: (compilation: Compilation) => void): void } };
}
interface WebpackModule {
  identifier(): string;
}
/** A comparator of modules, as webpack's sorted sets take it. */
type ModuleComparator = (a: WebpackModule, b: WebpackModule) => -1 | 0 | 1;
interface ChunkGraph {
  setModuleId(module: WebpackModule, id: number | string): void;
  getOrderedChunkModulesIterableBySourceType(chunk: unknown, sourceType: string, comparator: ModuleComparator): Iterable<WebpackModule> | undefined;
}
interface Compilation {
  chunkGraph: ChunkGraph;
  moduleGraph: unknown;
  hooks: { moduleIds: { tap(name: string, fn: () => void): void }; seal: { tap(name: string, fn: () => void): void } };
}
/** The part of webpack's `lib/ids/IdHelpers.js` this plugin uses (the same helpers its deterministic ids use). */
interface IdHelpers {
  getUsedModuleIdsAndModules(compilation: Compilation): [Set<string>, WebpackModule[]];
  assignDeterministicIds(
    items: WebpackModule[],
    getName: (module: WebpackModule) => string,
    comparator: (a: WebpackModule, b: WebpackModule) => number,
    assignId: (module: WebpackModule, id: number) => boolean,
    ranges: number[],
    expandFactor: number,
    extraSpace: number,
    salt: number,
  ): void;
}

const PLUGIN = 'SkeinLocationFreeModuleIds';
/** The digest in a generated module's file name (`workflows-<16 hex>.cjs`), which hashes absolute paths. */
const NAME_DIGEST = /-[0-9a-f]{16}(?=[.-])/;

/** Where the modules of a bundle come from: the project's roots (real paths) and the folder of the generated modules. */
export interface ModulePlaces {
  /** The project root, then the root of every exposed package (real paths). */
  roots: readonly string[];
  /** The folder holding the generated entry (`<bundle cache>/work`, or a temporary folder). */
  workDir: string;
}

/**
 * A module's name without any location: every absolute path in webpack's identifier of it (the resource and its
 * loaders) becomes `<work>/<file>` for a generated module, `<root N>/<path>` for a file of the project or an
 * exposed package, and `<package>@<version>/<path>` for a file of any other package (its nearest `package.json`
 * with a name). A path under none of them stays as it is.
 */
export function locationFreeName(identifier: string, places: ModulePlaces, packageOf: (dir: string) => PackageAt | null): string {
  const roots = rootNames(places);
  const placeOf = (file: string): string => {
    const posix = (rel: string) => rel.split(path.sep).join('/');
    const inside = (dir: string) => {
      const rel = path.relative(dir, file);
      return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : null;
    };
    const work = inside(places.workDir);
    if (work !== null) return `<work>/${posix(work).replace(NAME_DIGEST, '')}`;
    // The roots holding the file are among its folders: looked up from the deepest folder up, so the longest
    // (innermost) root comes first, without measuring the file against every root of a 200-package project.
    for (let dir = path.dirname(path.resolve(file)); ; dir = path.dirname(dir)) {
      const name = roots.get(dir);
      if (name !== undefined) {
        const rel = inside(dir);
        if (rel !== null && !rel.split(path.sep).includes('node_modules')) return `${name}/${posix(rel)}`;
      }
      if (path.dirname(dir) === dir) break;
    }
    const pkg = packageOf(path.dirname(file));
    return pkg ? `${pkg.id}/${posix(path.relative(pkg.dir, file))}` : file;
  };
  return identifier
    .split(/([!|])/)
    .map((part) => {
      const query = part.indexOf('?');
      const file = query === -1 ? part : part.slice(0, query);
      return path.isAbsolute(file) ? placeOf(file) + part.slice(file.length) : part;
    })
    .join('');
}

/** `<rootN>` by root folder (resolved), the first of equal roots winning; made once per `places`. */
const rootNamesOf = new WeakMap<ModulePlaces, Map<string, string>>();

function rootNames(places: ModulePlaces): Map<string, string> {
  let names = rootNamesOf.get(places);
  if (!names) {
    names = new Map();
    for (const [i, root] of places.roots.entries()) {
      const dir = path.resolve(root);
      if (!names.has(dir)) names.set(dir, `<root${i}>`);
    }
    rootNamesOf.set(places, names);
  }
  return names;
}

/** A package folder and its `<name>@<version>`. */
export interface PackageAt {
  dir: string;
  id: string;
}

/** The nearest package (a `package.json` with a name) at or above a folder, remembered per folder. */
function packageFinder(): (dir: string) => PackageAt | null {
  const known = new Map<string, PackageAt | null>();
  const find = (dir: string): PackageAt | null => {
    const cached = known.get(dir);
    if (cached !== undefined) return cached;
    let found: PackageAt | null = null;
    const pkgFile = path.join(dir, 'package.json');
    if (existsSync(pkgFile)) {
      try {
        const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { name?: unknown; version?: unknown };
        if (typeof pkg.name === 'string' && pkg.name !== '') found = { dir, id: `${pkg.name}@${typeof pkg.version === 'string' ? pkg.version : ''}` };
      } catch {
        // an unreadable package.json names no package: look further up
      }
    }
    if (!found && path.dirname(dir) !== dir) found = find(path.dirname(dir));
    known.set(dir, found);
    return found;
  };
  return find;
}

/**
 * A webpack plugin giving every module a short numeric id hashed from its {@link locationFreeName}, with webpack's
 * own deterministic-id helpers (the same id space and collision handling as `moduleIds: 'deterministic'`, which it
 * replaces: set `optimization.moduleIds` to `false`), and writing every chunk's modules in the order of those ids.
 *
 * webpack has no option for the order in which a chunk's modules are written: its JavaScript (and CSS, asset)
 * rendering asks the chunk graph for the modules sorted by their absolute paths. The plugin answers that one
 * question of the compilation's chunk graph with its own comparator (by id, which is location-free), and leaves
 * every other question to webpack.
 */
export class LocationFreeModuleIds {
  readonly places: ModulePlaces;

  /** @param places where the bundle's modules come from; symbolic links in them are resolved (webpack names modules by real path). */
  constructor(places: ModulePlaces) {
    const real = (p: string) => {
      try {
        return realpathSync(p);
      } catch {
        return path.resolve(p);
      }
    };
    this.places = { roots: places.roots.map(real), workDir: real(places.workDir) };
  }

  apply(compiler: Compiler): void {
    // The helpers of the webpack instance Temporal's bundler runs (the one compiling).
    const webpackRequire = createRequire(createRequire(import.meta.url).resolve('@temporalio/worker/package.json'));
    const ids = webpackRequire('webpack/lib/ids/IdHelpers.js') as IdHelpers;
    const comparators = webpackRequire('webpack/lib/util/comparators.js') as {
      compareModulesByPreOrderIndexOrIdentifier: (moduleGraph: unknown) => (a: WebpackModule, b: WebpackModule) => number;
      compareModulesByIdOrIdentifier: (chunkGraph: ChunkGraph) => ModuleComparator;
    };
    compiler.hooks.compilation.tap(PLUGIN, (compilation) => {
      compilation.hooks.seal.tap(PLUGIN, () => {
        const chunkGraph = compilation.chunkGraph;
        const ordered = chunkGraph.getOrderedChunkModulesIterableBySourceType.bind(chunkGraph);
        const byId = comparators.compareModulesByIdOrIdentifier(chunkGraph);
        chunkGraph.getOrderedChunkModulesIterableBySourceType = (chunk, sourceType) => ordered(chunk, sourceType, byId);
      });
      compilation.hooks.moduleIds.tap(PLUGIN, () => {
        const packageOf = packageFinder();
        const [usedIds, modules] = ids.getUsedModuleIdsAndModules(compilation);
        ids.assignDeterministicIds(
          modules,
          (module) => locationFreeName(module.identifier(), this.places, packageOf),
          comparators.compareModulesByPreOrderIndexOrIdentifier(compilation.moduleGraph),
          (module, id) => {
            const size = usedIds.size;
            usedIds.add(`${id}`);
            if (size === usedIds.size) return false;
            compilation.chunkGraph.setModuleId(module, id);
            return true;
          },
          [1000],
          10,
          usedIds.size,
          0,
        );
      });
    });
  }
}
