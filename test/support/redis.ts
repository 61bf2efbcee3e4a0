// The Redis the tests may use: REDIS_URL when set; else the CI address when a Redis answers PING
// there; else none (in-memory limits).
import { connect } from 'node:net';

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
