/**
 * The names and identifiers every Skein package agrees on live in `@skein/names` (no runtime dependency, so the
 * analysis packages read them without loading the authoring runtime); the authoring API re-exports them.
 */
export * from '@skein/names';
