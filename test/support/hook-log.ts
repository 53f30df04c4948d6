import { readFile } from 'node:fs/promises';

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

/** Polls until `predicate` holds for the hook log (hooks run asynchronously), at most `timeoutMs`. */
export async function waitForHooks(file: string, predicate: (records: HookRecord[]) => boolean, timeoutMs = 10_000): Promise<HookRecord[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const records = await readHookLog(file);
    if (predicate(records) || Date.now() > deadline) return records;
    await new Promise((r) => setTimeout(r, 100));
  }
}
