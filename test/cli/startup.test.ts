import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { spawnSkein } from '../support/processes.js';

/** Runs the `skein` CLI to completion and returns its exit code and output. */
async function skein(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = spawnSkein(args, env);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

describe('skein worker: bad starts end with one clear line and exit code 1', () => {
  it('refuses a project with no workflows', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'skein-empty-'));
    try {
      await writeFile(path.join(dir, 'package.json'), '{"name":"empty","private":true}');
      const res = await skein(['worker', dir], { TEMPORAL_ADDRESS: '127.0.0.1:1' });
      expect(res.code).toBe(1);
      // The startup validation refuses it (conventions/no-workflows), saying why.
      expect(res.stderr).toContain('conventions/no-workflows');
      expect(res.stderr).toContain('serves no workflow: no workflow file');
      expect(res.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses an invalid project before contacting the engine, printing every diagnostic', async () => {
    const res = await skein(['worker', 'fixtures/projects/invalid'], { TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('4 error(s) in workflow packages; this code is not served, built or replayed until they are fixed');
    for (const rule of ['steps/named-exports-only', 'workflow/no-node-modules', 'steps/import-style', 'names/duplicate-workflow']) {
      expect(res.stderr).toContain(rule);
    }
    expect(res.stderr).toMatch(/reader\/steps\.js\n\s+3:1\s+error/);
    expect(res.stderr).not.toContain('cannot reach the Temporal server');
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it('says the engine is unreachable, without a stack trace', async () => {
    const res = await skein(['worker', 'examples'], { TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/^skein: cannot reach the Temporal server at 127\.0\.0\.1:1: start one \("skein dev" runs its own\) or set TEMPORAL_ADDRESS/);
    expect(res.stderr).not.toContain('tonic');
  }, 60_000);

  it('a malformed setting stops worker, api and dev at start with one line naming the variable', async () => {
    const cases: Array<[string[], Record<string, string>, string]> = [
      [
        ['worker', 'examples'],
        { SKEIN_ENGINE_CHECK_FAILURES: 'three' },
        'skein: SKEIN_ENGINE_CHECK_FAILURES must be an integer between 1 and 1000, got "three"',
      ],
      [['worker', 'examples'], { SKEIN_LOG_LEVEL: 'loud' }, 'skein: SKEIN_LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "loud"'],
      [['api'], { SKEIN_RUN_TIMEOUT_MS: 'soon' }, 'skein: SKEIN_RUN_TIMEOUT_MS must be an integer between 250 and 3600000, got "soon"'],
      [['api'], { SKEIN_READY_FAILURES: '0' }, 'skein: SKEIN_READY_FAILURES must be an integer between 1 and 1000, got "0"'],
      [['dev', 'examples', '--no-watch'], { SKEIN_PROMOTE: 'sometimes' }, 'skein: SKEIN_PROMOTE must be one of auto, manual, got "sometimes"'],
      [
        ['worker', 'examples'],
        { SKEIN_BUILD_ID: 'v1.2' },
        'skein: SKEIN_BUILD_ID must be a build ID of at most 255 characters, without ".", "@" or whitespace, got "v1.2"',
      ],
    ];
    for (const [args, env, line] of cases) {
      const res = await skein(args, { TEMPORAL_ADDRESS: '127.0.0.1:1', PORT: '0', ...env });
      expect({ args, code: res.code, stderr: res.stderr.trim() }).toEqual({ args, code: 1, stderr: line });
    }
  }, 60_000);

  it('skein api says the engine is unreachable, without a stack trace', async () => {
    const res = await skein(['api'], { TEMPORAL_ADDRESS: '127.0.0.1:1', PORT: '0' });
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/^skein: cannot reach the Temporal server at 127\.0\.0\.1:1: /);
    expect(res.stderr).not.toContain('tonic');
  }, 60_000);

  it('skein api on a port in use says so in one line with the fix', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const res = await skein(['api'], { TEMPORAL_ADDRESS: inject('temporalAddress'), PORT: String(port) });
      expect(res.code).toBe(1);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stderr).toContain(`127.0.0.1:${port} is already in use: stop the process using it, or set PORT to another port`);
    } finally {
      blocker.close();
    }
  }, 60_000);

  it('skein dev with a taken --temporal-port names the flags to use instead', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const res = await skein(['dev', 'examples', '--temporal-port', String(port), '--no-watch'], { TEMPORAL_ADDRESS: '' });
      expect(res.code).toBe(1);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stderr).toContain(`port ${port} (--temporal-port) is already in use`);
      expect(res.stderr).toContain(`--temporal-address 127.0.0.1:${port}`);
    } finally {
      blocker.close();
    }
  }, 60_000);

  it('a missing temporal binary is one line naming the install command', async () => {
    const res = await skein(['temporal', 'path'], {
      TEMPORAL_CLI_PATH: '/nonexistent/temporal',
      PATH: path.dirname(process.execPath),
      XDG_CACHE_HOME: tmpdir() + '/skein-no-cache',
    });
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/^skein: No temporal binary found .*Fix: run "npx skein temporal install"/);
  }, 60_000);
});
