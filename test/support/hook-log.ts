import { readFile } from 'node:fs/promises';
import { eventually } from './poll.js';

/** One line of the runtime fixture's hook log (`fixtures/projects/runtime/hooks.js`). */
export interface HookRecord {
  hook: string;
  payload: any;
}

/** Reads the hook log written by the runtime fixture's hooks. */
export async function readHookLog(file: string): Promise<HookRecord[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as HookRecord);
}

/**
 * The hook log once `predicate` holds for it (hooks run asynchronously), asking every 100 ms for at most `timeoutMs`;
 * after that, the log as it is (the caller's assertions then say what is missing).
 */
export async function waitForHooks(file: string, predicate: (records: HookRecord[]) => boolean, timeoutMs = 10_000): Promise<HookRecord[]> {
  return eventually(async () => {
    const records = await readHookLog(file);
    return predicate(records) ? records : undefined;
  }, timeoutMs).catch(() => readHookLog(file));
}
