import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, locateTemporal, startDevServer } from '@skein/dev-server';

/** `startDevServer` and a port taken between its pick and the server's bind. */
let binary: string;
let holder: Server;
let taken: number;

beforeAll(async () => {
  binary = (await locateTemporal({ install: true })).path;
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  taken = (holder.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => holder?.close(resolve));
});

describe('startDevServer on a taken port', () => {
  it('fails on a port it was given, naming the port and the cause', async () => {
    await expect(startDevServer({ binary, port: taken })).rejects.toThrow(new RegExp(`port ${taken}.*address already in use`));
  });

  it('starts again on another port when the port it picked is taken before the server binds it', async () => {
    const picked: number[] = [];
    const ports = [taken, await freePort()];
    const server = await startDevServer({ binary, pickPort: async () => (picked.push(ports[picked.length]!), ports[picked.length - 1]!) });
    try {
      expect(picked).toEqual(ports);
      expect(server.address).toBe(`127.0.0.1:${ports[1]}`);
    } finally {
      await server.stop();
    }
  });

  it('gives up after three taken ports, with the cause', async () => {
    let picks = 0;
    await expect(startDevServer({ binary, pickPort: async () => (picks++, taken) })).rejects.toThrow(/address already in use/);
    expect(picks).toBe(3);
  });
});
