// The model client's fetch: node's http(s) on keep-alive agents rather than the built-in fetch
// (undici), which costs about a millisecond more CPU per model call, in every turn and job. It does
// what the openai client asks of fetch — a request with a text body and an abort signal, answered
// with a standard Response whose body streams — and no more (no redirects, no compression).
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { flatten, IDLE_CONNECTION_MS } from '../outbound/client.js';

const agents: Record<string, http.Agent> = {
  'http:': new http.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  'https:': new https.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
};

// Statuses whose responses have no body (the Response constructor refuses one).
const BODILESS = new Set([204, 205, 304]);

export function modelFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  // The openai client passes a URL and the request's parts in `init`, never a Request.
  if (input instanceof Request) return Promise.reject(new TypeError('the model client passes a URL, not a Request'));
  const url = new URL(input);
  const agent = agents[url.protocol];
  if (!agent) return Promise.reject(new TypeError(`unsupported protocol ${url.protocol}`));
  const body = init.body ?? undefined;
  if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) {
    return Promise.reject(new TypeError('the model client sends text bodies only'));
  }
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers, agent, signal: init.signal ?? undefined }, (res) => {
      const status = res.statusCode ?? 502;
      const init = { status, statusText: res.statusMessage, headers: flatten(res.headers) };
      if (!BODILESS.has(status)) return resolve(new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, init));
      res.resume();
      resolve(new Response(null, init));
    });
    req.on('error', reject);
    req.end(body);
  });
}
