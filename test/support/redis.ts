// The Redis the tests may use: REDIS_URL when set; else the CI address when a Redis answers PING
// there; else none (in-memory limits).
import { connect, createServer } from 'node:net';

const CI_REDIS = 'redis://127.0.0.1:6379';

export async function reachableRedis(): Promise<string | undefined> {
  if (process.env.REDIS_URL) return process.env.REDIS_URL;
  return new Promise((resolve) => {
    const socket = connect(6379, '127.0.0.1');
    const done = (url?: string) => {
      socket.destroy();
      resolve(url);
    };
    socket.setTimeout(2000, () => done());
    socket.once('error', () => done());
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG') ? CI_REDIS : undefined));
  });
}

/** A Redis URL on a loopback port nothing listens on: Redis down. */
export async function unreachableRedisUrl(): Promise<string> {
  const port = await new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
  return `redis://127.0.0.1:${port}`;
}
