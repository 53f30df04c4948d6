/**
 * Reading one local trace file without letting the file turn the read against the API. A trace folder is written
 * by workers, but anyone who can write into it can put something other than a trace at a trace path: a FIFO (an
 * `open` or `read` of it waits for a writer forever, holding one of libuv's four threads, which gzip and DNS share),
 * a hard link to a file outside the folder (a path check cannot see it), or a huge file (read whole, it takes the
 * API's memory). So the file is opened without following a final symbolic link and without blocking, every check is
 * made on the open handle (not on a path that may change in between), and the bytes are read through that handle in
 * bounded chunks, stopping at the caller's abort signal.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** Bytes read per `read` call (the last chunk may be shorter). */
const CHUNK_BYTES = 1024 * 1024;

/** Why a trace file was refused (`reason`), so the caller can log it; the message says it in words. */
export class TraceFileRefusedError extends Error {
  override readonly name = 'TraceFileRefusedError';
  /**
   * @param reason `not-regular` (a FIFO, socket, device or folder), `linked` (more than one hard link),
   *   `too-large` (over the limit), `symlink` (the last path component is a symbolic link).
   */
  constructor(
    readonly reason: 'not-regular' | 'linked' | 'too-large' | 'symlink',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Reads `file` as UTF-8 text, refusing anything that is not a plain trace file.
 * - opened with `O_NOFOLLOW | O_NONBLOCK`: a symbolic link as the last component fails at once, and opening a FIFO
 *   with no writer returns at once instead of waiting;
 * - checked on the handle (`fstat`): a regular file, exactly one link, at most `maxBytes` bytes;
 * - read through the handle in chunks of at most 1 MiB, never more than the checked size + 1 bytes in all (a file
 *   that grows after the check is refused), `signal` checked before every chunk.
 * The handle is closed in every case.
 * @param file absolute path (the caller has already confined it to a trace folder).
 * @param maxBytes largest accepted size, bytes.
 * @param signal aborts the read (the request went away, or its deadline passed).
 * @throws TraceFileRefusedError when the file is not a regular file, has other hard links, is a symbolic link or
 *   exceeds `maxBytes`; Error when it grew while it was read; the signal's reason when aborted; the system error (`ENOENT`, `EACCES`, …) otherwise.
 */
export async function readTraceFile(file: string, maxBytes: number, signal: AbortSignal): Promise<string> {
  signal.throwIfAborted();
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new TraceFileRefusedError('symlink', 'the trace path is a symbolic link');
    throw err;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new TraceFileRefusedError('not-regular', 'the trace path is not a regular file');
    if (stat.nlink !== 1) throw new TraceFileRefusedError('linked', `the trace file has ${stat.nlink} hard links (a trace file has one)`);
    if (stat.size > maxBytes) throw new TraceFileRefusedError('too-large', `the trace file is ${stat.size} bytes, over the ${maxBytes}-byte limit`);
    // One byte more than the checked size tells a file that grew since the check.
    const buffer = Buffer.allocUnsafe(stat.size + 1);
    let filled = 0;
    while (filled < buffer.length) {
      signal.throwIfAborted();
      const { bytesRead } = await handle.read(buffer, filled, Math.min(CHUNK_BYTES, buffer.length - filled), filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    // Workers replace a trace file by renaming a complete one over it: a file that grows is not one of theirs.
    if (filled > stat.size) throw new Error('the trace file grew while it was read');
    return buffer.toString('utf8', 0, filled);
  } finally {
    await handle.close();
  }
}
