import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { traceS3Client } from '../src/traces/s3.js';
import { traceRemoteOf } from '../src/traces/setup.js';

/**
 * The S3 trace destination takes its endpoint from the AWS SDK's own settings, profiles included: the endpoint the
 * SDK resolves (environment, the profile's `services` section or `endpoint_url`) is the one traces go to, addressed
 * path-style. No request is made here (the upload and the API's read against a real store are in
 * test/traces/aws-profile.system.test.ts).
 */
const AWS_VARS = [
  'AWS_PROFILE',
  'AWS_CONFIG_FILE',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_ENDPOINT_URL',
  'AWS_ENDPOINT_URL_S3',
  'AWS_IGNORE_CONFIGURED_ENDPOINT_URLS',
  'AWS_REGION',
  'AWS_DEFAULT_REGION',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
];
let saved: Record<string, string | undefined>;
let dir: string;
let n = 0;

beforeEach(() => {
  saved = Object.fromEntries(AWS_VARS.map((k) => [k, process.env[k]]));
  for (const k of AWS_VARS) delete process.env[k];
  dir = mkdtempSync(path.join(tmpdir(), 'skein-aws-config-'));
});

afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  rmSync(dir, { recursive: true, force: true });
});

/** A shared config file of its own for each case (the SDK caches a file's content by its path). */
function useConfig(text: string, profile: string): void {
  const file = path.join(dir, `config-${++n}`);
  writeFileSync(file, text);
  process.env.AWS_CONFIG_FILE = file;
  process.env.AWS_SHARED_CREDENTIALS_FILE = path.join(dir, 'no-credentials');
  process.env.AWS_PROFILE = profile;
}

const s3 = { bucket: 'traces', prefix: 'p/' };

describe('the S3 trace destination’s endpoint', () => {
  it('is the profile’s endpoint_url, addressed path-style, with the profile’s region', async () => {
    useConfig('[profile store]\nregion = eu-west-3\nendpoint_url = http://127.0.0.1:8333\n', 'store');
    const { client, endpoint } = await traceS3Client();
    expect(endpoint).toBe('http://127.0.0.1:8333');
    expect(client.config.forcePathStyle).toBe(true);
    expect(await traceRemoteOf({ s3 } as never)).toMatchObject({ remote: { ...s3, region: 'eu-west-3', endpoint: 'http://127.0.0.1:8333' } });
  });

  it('is the s3 endpoint_url of the profile’s services section, before the profile’s own', async () => {
    useConfig(
      '[profile store]\nregion = us-east-1\nendpoint_url = http://127.0.0.1:1\nservices = local\n\n[services local]\ns3 =\n  endpoint_url = http://127.0.0.1:9000\n',
      'store',
    );
    expect((await traceS3Client()).endpoint).toBe('http://127.0.0.1:9000');
  });

  it('is AWS_ENDPOINT_URL_S3 before any profile setting, and none when configured endpoints are ignored', async () => {
    useConfig('[profile store]\nregion = us-east-1\nendpoint_url = http://127.0.0.1:1\n', 'store');
    process.env.AWS_ENDPOINT_URL_S3 = 'http://127.0.0.1:7000';
    expect((await traceS3Client()).endpoint).toBe('http://127.0.0.1:7000');
    process.env.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS = 'true';
    const { client, endpoint } = await traceS3Client();
    expect(endpoint).toBeUndefined();
    expect(client.config.forcePathStyle).toBeFalsy();
  });
});
