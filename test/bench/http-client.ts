// The benchmarks' load generator: JSON over node's http with a keep-alive agent. It costs the
// shared cores far less per request than fetch does (undici; measured about 1 ms more CPU per
// call), so the harness takes less of the machine from the system it measures — as graphile-worker's
// side adds its jobs with a plain pg query.
import http from 'node:http';

export interface BenchClient {
  request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

export function benchClient(url: string, apiKey: string): BenchClient {
  const agent = new http.Agent({ keepAlive: true });
  const base = new URL(url);
  return {
    request: (method, path, body) =>
      new Promise((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const req = http.request(
          {
            host: base.hostname,
            port: base.port,
            path,
            method,
            agent,
            headers: {
              authorization: `Bearer ${apiKey}`,
              ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
            },
          },
          (res) => {
            const parts: Buffer[] = [];
            res.on('data', (part: Buffer) => parts.push(part));
            res.on('end', () => {
              const text = Buffer.concat(parts).toString('utf8');
              resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(payload);
      }),
  };
}
