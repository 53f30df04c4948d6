import { describe, expect, it } from 'vitest';
import { loadDeploymentConfig, loadWorkerConfig } from '../../src/host/config.js';

describe('deployment settings', () => {
  it('defaults: the deployment is named after the catalog, the build ID is computed, promotion is automatic', () => {
    expect(loadDeploymentConfig('shop', {})).toEqual({ name: 'shop', buildId: undefined, promote: 'auto', project: undefined });
    expect(loadWorkerConfig({ SKEIN_CATALOG: 'billing' }).deployment).toEqual({ name: 'billing', buildId: undefined, promote: 'auto', project: undefined });
  });

  it('reads SKEIN_DEPLOYMENT_NAME, SKEIN_BUILD_ID, SKEIN_PROMOTE and SKEIN_PROJECT', () => {
    expect(
      loadDeploymentConfig('shop', {
        SKEIN_DEPLOYMENT_NAME: 'shop-eu',
        SKEIN_BUILD_ID: ' 2026-11-25-a ',
        SKEIN_PROMOTE: 'Manual',
        SKEIN_PROJECT: '@acme/shop',
      }),
    ).toEqual({
      name: 'shop-eu',
      buildId: '2026-11-25-a',
      promote: 'manual',
      project: '@acme/shop',
    });
  });

  it('refuses a malformed setting, naming the variable', () => {
    expect(() => loadDeploymentConfig('shop', { SKEIN_PROMOTE: 'sometimes' })).toThrow(/SKEIN_PROMOTE must be one of auto, manual.*sometimes/);
    expect(() => loadDeploymentConfig('shop', { SKEIN_DEPLOYMENT_NAME: 'shop.eu' })).toThrow(/SKEIN_DEPLOYMENT_NAME must be a deployment name .*shop\.eu/);
    expect(() => loadDeploymentConfig('shop', { SKEIN_BUILD_ID: 'v1.2' })).toThrow(/SKEIN_BUILD_ID must be a build ID/);
    // `@` separates a catalog from a build ID in the ids of Skein's records.
    expect(() => loadDeploymentConfig('shop', { SKEIN_BUILD_ID: 'v1@x' })).toThrow(/SKEIN_BUILD_ID must be a build ID .*"@"/);
    expect(() => loadWorkerConfig({ SKEIN_CATALOG: 'main@b1' })).toThrow(/SKEIN_CATALOG must be a catalog name without "@"/);
    expect(() => loadDeploymentConfig('shop', { SKEIN_PROJECT: 'shop\u001b[2J' })).toThrow(/SKEIN_PROJECT must be a project name/);
  });
});
