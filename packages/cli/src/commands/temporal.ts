import { locateTemporal } from '@skein/dev-server';
import { explainError } from '../explain.js';
import { fail } from '../logger.js';

/** `skein temporal path|install`: prints the path of a working `temporal` binary, installing one if asked. */
export async function temporalCommand(action: 'path' | 'install'): Promise<void> {
  try {
    const found = await locateTemporal({ install: action === 'install', log: (l) => process.stderr.write(`${l}\n`) });
    process.stdout.write(`${found.path}\n`);
    process.stderr.write(`temporal from ${found.source}: ${found.version}\n`);
  } catch (err) {
    fail(explainError(err));
  }
}
