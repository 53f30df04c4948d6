import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureInit } from '../src/command.js';

/** The init command line's exit codes for what commander refuses before anything is written. */
describe('init command line', () => {
  afterEach(() => vi.restoreAllMocks());

  /** The exit code `init` ends with for `args`, and what it wrote to stderr. */
  async function exitOf(args: string[]): Promise<{ code: number | undefined; stderr: string }> {
    const exit = vi.spyOn(process, 'exit').mockImplementation(((code?: number) => {
      throw Object.assign(new Error('exit'), { exitCode: code });
    }) as never);
    let stderr = '';
    const command = configureInit(new Command('create-skein')).configureOutput({ writeErr: (s) => void (stderr += s), writeOut: () => {} });
    try {
      await command.parseAsync(args, { from: 'user' });
      return { code: undefined, stderr };
    } catch (err) {
      expect(exit).toHaveBeenCalled();
      return { code: (err as { exitCode?: number }).exitCode, stderr };
    }
  }

  it('exits 2 (refused, nothing written) for an unknown option or a bad --package-manager, 0 for --help', async () => {
    expect(await exitOf(['x', '--bogus'])).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown option '--bogus'") });
    expect(await exitOf(['x', '--package-manager', 'foo'])).toMatchObject({ code: 2, stderr: expect.stringContaining('one of npm') });
    expect((await exitOf(['--help'])).code).toBe(0);
  });
});
