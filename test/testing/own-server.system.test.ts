import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { createTestEnv } from '@skein/testing';
import { repoRoot } from '../support/stack.js';

describe('@skein/testing with its own dev server', () => {
  it('starts an ephemeral dev server on a free port and stops it on close', async () => {
    const env = await createTestEnv({ projectDir: path.join(repoRoot, 'examples') });
    try {
      expect(env.address).not.toBe(inject('temporalAddress'));
      await expect(env.run('summarize', { text: 'Hi there.' })).resolves.toMatchObject({ words: 2 });
    } finally {
      await env.close();
    }
    const [host, port] = env.address.split(':');
    const { createConnection } = await import('node:net');
    const refused = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host, port: Number(port) });
      socket.once('connect', () => (socket.destroy(), resolve(false)));
      socket.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  }, 120_000);
});
