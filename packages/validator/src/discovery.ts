/**
 * The validator's only link to `@skein/discovery`: the manifest and the file conventions come from there
 * (STYLE: conventions are decided once, in discovery).
 */
export { classifyFile, discover } from '@skein/discovery';
