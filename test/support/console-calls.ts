// Console call helpers: a live outbound call on the simulated network, and the console's calls stream read as a browser's EventSource does.
import { expect } from 'chai';
import { createParser } from 'eventsource-parser';
import type { Client } from './app.js';
import { callStatus, NUMBERS, type CallsApp } from './calls.js';

let tasks = 0;

/** A call answered by a callee who then stays silent for a minute: on the line until hung up; the agent greets with `greeting`. */
export async function liveCall(
  app: CallsApp,
  client: Client,
  greeting = 'Hi, this is Acme calling.',
): Promise<{ id: string; task: string }> {
  const task = `Keep the line open ${++tasks} ${Date.now()}`;
  app.script(task, { content: greeting });
  const placed = await client.post('/v1/calls', { to: NUMBERS.stays, task });
  expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
  await callStatus(client, placed.body.id, 'in-progress');
  return { id: placed.body.id, task };
}

export interface CallsStream {
  status: number;
  contentType: string | null;
  events: any[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** GET /console/api/calls/stream with the session cookie `cookie`, reading its events as they come. */
export async function openCallsStream(url: string, cookie: string | undefined): Promise<CallsStream> {
  const abort = new AbortController();
  const res = await fetch(`${url}/console/api/calls/stream`, {
    headers: cookie ? { cookie: `sb_session=${cookie}` } : {},
    signal: abort.signal,
  });
  const events: any[] = [];
  const parser = createParser({ onEvent: (e) => events.push(JSON.parse(e.data)) });
  const decoder = new TextDecoder();
  const ended = (async () => {
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
    } catch (err) {
      if (!abort.signal.aborted) throw err;
    }
  })();
  return { status: res.status, contentType: res.headers.get('content-type'), events, ended, close: () => abort.abort() };
}
