import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { binaryCacheDir, startOnFreePorts } from '@skein/dev-server';

/** A real SeaweedFS (`weed mini`) serving S3 on loopback, with one access key and one bucket. */
export interface SeaweedFs {
  /** `http://127.0.0.1:<port>`. */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The AWS SDK settings (endpoint, region, credentials) and the trace destination settings for a worker or API. */
  env: Record<string, string>;
  /** Stops the server (its data stays), as storage going down. */
  stop(): Promise<void>;
  /** Starts it again on the same ports and data. */
  restart(): Promise<void>;
  /** Stops it and deletes its data. */
  close(): Promise<void>;
}

/** The `weed` binary: `SEAWEEDFS_WEED_PATH`, else the cache the system tier's setup fills (`services.ts`). */
export function locateWeed(): string {
  const found = process.env.SEAWEEDFS_WEED_PATH || path.join(binaryCacheDir(), 'weed');
  if (!existsSync(found)) throw new Error(`no weed binary at ${found}: run "npm run services:install weed" (or set SEAWEEDFS_WEED_PATH)`);
  return found;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * `n` distinct loopback ports p with p and p + 10 000 (SeaweedFS's gRPC port of each) both free, all below Linux's
 * ephemeral floor (32 768): an outbound connection of any other process may take an ephemeral port between this check
 * and weed's bind (CI saw the S3 gRPC port taken so), while a port below the floor is only ever taken by a listener.
 */
async function freePorts(n: number): Promise<number[]> {
  const out: number[] = [];
  for (let tries = 0; out.length < n && tries < 500; tries++) {
    const p = 10_000 + Math.floor(Math.random() * 12_700);
    if (out.some((q) => Math.abs(q - p) < 2 || Math.abs(q + 10_000 - p) < 2 || Math.abs(q - 10_000 - p) < 2)) continue;
    if ((await portFree(p)) && (await portFree(p + 10_000))) out.push(p);
  }
  if (out.length < n) throw new Error('no free loopback ports for SeaweedFS');
  return out;
}

/**
 * Starts `weed mini` on free loopback ports with a fresh data folder, the access key `skein-test` (and a random
 * secret) and `bucket` created, and waits until the bucket answers (up to 60 s).
 * @throws when the binary is missing or the server does not come up.
 */
export async function startSeaweedFs(bucket = 'skein-traces'): Promise<SeaweedFs> {
  const weed = locateWeed();
  const accessKeyId = 'skein-test';
  const secretAccessKey = `secret-${Math.random().toString(36).slice(2)}`;
  // The data folder, the settings and the client of the current ports (`startOnFreePorts` below may pick others).
  let dir = '';
  let args: string[] = [];
  let client: S3Client | undefined;
  let child: ChildProcess | undefined;
  let output = '';

  const start = async () => {
    output = '';
    child = spawn(weed, args, {
      env: { ...process.env, AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, S3_BUCKET: bucket },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output = (output + d).slice(-20_000)));
    child.stderr!.on('data', (d) => (output = (output + d).slice(-20_000)));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`weed mini exited with ${child.exitCode}:\n${output}`);
      const ok = await client!.send(new HeadBucketCommand({ Bucket: bucket })).then(
        () => true,
        () => false,
      );
      if (ok) return;
      if (Date.now() > deadline) throw new Error(`weed mini did not serve bucket ${bucket} within 60 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const stop = async () => {
    const c = child;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    const timer = setTimeout(() => c.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const endpoint = await startOnFreePorts(async () => {
    const [s3, filer, master, admin, volume] = await freePorts(5);
    const url = `http://127.0.0.1:${s3}`;
    dir = await mkdtemp(path.join(tmpdir(), 'skein-weed-'));
    args = [
      'mini',
      `-dir=${dir}`,
      '-ip=127.0.0.1',
      '-ip.bind=127.0.0.1',
      `-s3.port=${s3}`,
      `-filer.port=${filer}`,
      `-master.port=${master}`,
      `-admin.port=${admin}`,
      `-volume.port=${volume}`,
      '-admin.port.legacy=0',
      '-s3.port.iceberg=0',
      '-s3.port.lance=0',
      '-webdav=false',
    ];
    client?.destroy();
    client = new S3Client({ endpoint: url, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId, secretAccessKey }, maxAttempts: 1 });
    try {
      await start();
      return url;
    } catch (error) {
      await stop();
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  });
  return {
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    env: {
      AWS_ENDPOINT_URL_S3: endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: accessKeyId,
      AWS_SECRET_ACCESS_KEY: secretAccessKey,
      SKEIN_TRACE_S3_BUCKET: bucket,
    },
    stop,
    restart: start,
    async close() {
      await stop();
      client!.destroy();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
