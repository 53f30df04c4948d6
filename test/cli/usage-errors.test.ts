import { describe, expect, it } from 'vitest';
import { skein } from './client-support.js';

/**
 * Every `skein` command answers a usage error (an unknown option, a missing argument) the same way, as docs/cli.md
 * says: exit 2, the reason, and a pointer to `--help`. No engine or API is needed: each is refused before it runs.
 */
describe('skein usage errors', () => {
  it('exit 2 with the reason and "(add --help for usage)", whichever command', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['temporal'], /missing required argument 'action'/],
      [['dev', '--bogus'], /unknown option '--bogus'/],
      [['worker', '--bogus'], /unknown option '--bogus'/],
      [['api', '--bogus'], /unknown option '--bogus'/],
      [['build', '--bogus'], /unknown option '--bogus'/],
      [['replay', '--limit'], /argument missing/],
      [['workflow', 'run'], /missing required argument 'name'/],
      [['nope'], /unknown command 'nope'/],
    ];
    for (const [args, reason] of cases) {
      const res = await skein('http://127.0.0.1:9', args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr, args.join(' ')).toMatch(reason);
      expect(res.stderr, args.join(' ')).toContain('(add --help for usage)');
    }
    const version = await skein('http://127.0.0.1:9', ['--version']);
    expect(version).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) });
  });
});
