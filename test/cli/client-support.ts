import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { spawnSkein } from '../support/processes.js';
import { eventually } from '../support/poll.js';
import { repoRoot } from '../support/stack.js';

/** What a finished `skein` command left: its exit code and its two output streams. */
export interface SkeinResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `skein <args>` against the API at `url` (SKEIN_API_URL), optionally feeding `stdin`, and waits for it.
 * Standard output is not a TTY, so output is plain (no colours, no spinner).
 */
export async function skein(url: string, args: string[], options: { stdin?: string; env?: Record<string, string> } = {}): Promise<SkeinResult> {
  const run = spawnSkein(args, { SKEIN_API_URL: url, SKEIN_API_TOKEN: '', ...options.env });
  run.child.stdin!.end(options.stdin ?? '');
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** The `skein` bin as a shell word, for pipelines. */
export const SKEIN_BIN = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(repoRoot, 'packages/cli/dist/bin.js'))}`;

/** Runs a bash pipeline (with `set -o pipefail` off, so PIPESTATUS is the caller's to read). */
export async function shell(script: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('bash', ['-c', script], { cwd: repoRoot, env: { ...process.env, SKEIN_API_TOKEN: '', ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Whether `jq` is installed (the scripting tests pipe into it when it is, and parse the JSON themselves otherwise). */
export async function hasJq(): Promise<boolean> {
  return (await shell('command -v jq', {})).code === 0;
}

/** The event ids of `skein workflow history` human output, in printed order. */
export function printedEventIds(stdout: string): number[] {
  return stdout
    .split('\n')
    .map((l) => /^\s*(\d+)\s{2}/.exec(l)?.[1])
    .filter((x): x is string => x !== undefined)
    .map(Number);
}

/** Waits until `check` returns true (every 100 ms, at most `timeoutMs`), through `eventually` (Vitest's poller). */
export async function until(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  await eventually(check, timeoutMs);
}

/** `[1, 2, …, n]`. */
export function oneTo(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1);
}
