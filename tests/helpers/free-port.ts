import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 right now (the OS picks it), for a server a test or benchmark starts. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
