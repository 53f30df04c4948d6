/** The validator's tests use the rule tester it exports for rule authors (`@skein/validator/testing`). */
export { lint, positions, type LintOptions } from '../src/testing.js';
