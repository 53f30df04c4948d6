/**
 * `create-skein`: scaffolds a Skein project or workflow package (`npm create skein`, `skein init`).
 */
export {
  scaffold,
  skeinVersion,
  packageNameProblems,
  detectPackageManager,
  ScaffoldError,
  PACKAGE_MANAGERS,
  type PackageManager,
  type ScaffoldKind,
  type ScaffoldOptions,
  type ScaffoldResult,
} from './scaffold.js';
export { configureInit, runInit, type InitFlags } from './command.js';
