import { describe, expect, it } from 'vitest';
import { loadWorkerConfig } from '../../src/host/config.js';

describe("the worker's cache settings", () => {
  it('default to the project caches with webpack’s persistent cache on', () => {
    const config = loadWorkerConfig({});
    expect(config).toMatchObject({ bundleCache: undefined, startupCache: undefined, webpackCache: true });
  });

  it('read SKEIN_WEBPACK_CACHE as on or off, in any case, and refuse anything else naming the variable', () => {
    expect(loadWorkerConfig({ SKEIN_WEBPACK_CACHE: 'OFF' }).webpackCache).toBe(false);
    expect(loadWorkerConfig({ SKEIN_WEBPACK_CACHE: ' on ' }).webpackCache).toBe(true);
    expect(() => loadWorkerConfig({ SKEIN_WEBPACK_CACHE: 'no' })).toThrow(/SKEIN_WEBPACK_CACHE must be one of on, off/);
  });
});
