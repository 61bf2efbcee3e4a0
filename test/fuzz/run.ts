// The fuzz of the Agent API, the Voice API and MCP against a running app: requests generated from the
// documents and the tool list the app serves, with each seed, sent a few at a time, every answer checked.
import fc from 'fast-check';
import type { TestApp } from '../support/app.js';
import { answerChecker, type Answer } from './check.js';
import { documentedOperations, documentedRequests, endpointOf, mcpRequests, type FuzzRequest, type McpTool } from './cases.js';
import { makeWorld } from './world.js';

export interface Violation {
  endpoint: string;
  kind: string;
  request: string;
  status: number;
  problems: string[];
  answer: string;
}

export interface FuzzFigures {
  seeds: number[];
  requests: number;
  ms: number;
  /** Per endpoint: requests sent and the statuses answered. */
  endpoints: Map<string, { requests: number; statuses: Map<number, number> }>;
  violations: Violation[];
  /** The request that took longest to answer. */
  slowest: { request: string; endpoint: string; kind: string; ms: number };
}

async function served(app: TestApp, apiKey: string): Promise<{ agent: any; voice: any; tools: McpTool[] }> {
  const agent = (await app.client().get('/api/v1/openapi.json')).body;
  const voice = (await app.client().get('/v1/openapi.json')).body;
  const listed = await fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  const { result } = (await listed.json()) as { result: { tools: McpTool[] } };
  return { agent, voice, tools: result.tools };
}

async function send(url: string, req: FuzzRequest): Promise<Answer> {
  try {
    const res = await fetch(`${url}${req.path}`, {
      method: req.method,
      headers: req.headers,
      body: req.body ? new Uint8Array(req.body) : undefined,
      signal: AbortSignal.timeout(90_000),
    });
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
  } catch (err) {
    // No answer at all (a reset connection, a hang) is as much a failure as a 5xx.
    return { status: 599, contentType: '', text: String((err as Error).cause ?? err) };
  }
}

const shown = (req: FuzzRequest): string => {
  const body = req.body
    ? ` ${req.body.length > 300 ? `${req.body.subarray(0, 300).toString('utf8')}… (${req.body.length} bytes)` : req.body.toString('utf8')}`
    : '';
  return `${req.method} ${req.path.length > 300 ? `${req.path.slice(0, 300)}…` : req.path}${body}`;
};

/** Interleaves the endpoints' requests, so each endpoint meets the state the others leave. */
function interleaved(lists: FuzzRequest[][]): FuzzRequest[] {
  const out: FuzzRequest[] = [];
  for (let i = 0; lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length) out.push(l[i]!);
  return out;
}

/** `count` requests spread evenly over every endpoint and the seeds, `concurrency` at a time. */
export async function fuzz(
  app: TestApp,
  opts: { count: number; seeds: number[]; concurrency?: number; log?: (line: string) => void },
): Promise<FuzzFigures> {
  const world = await makeWorld(app);
  const docs = await served(app, world.own.apiKey);
  const arbitraries: [string, fc.Arbitrary<FuzzRequest>][] = [
    ...documentedOperations(docs.agent, 'agent', '/api/v1').map(
      (o) => [endpointOf(o), documentedRequests(docs.agent, o, world)] as [string, fc.Arbitrary<FuzzRequest>],
    ),
    ...documentedOperations(docs.voice, 'voice', '/v1').map(
      (o) => [endpointOf(o), documentedRequests(docs.voice, o, world)] as [string, fc.Arbitrary<FuzzRequest>],
    ),
    ...docs.tools.map((t) => [`MCP tools/call ${t.name}`, mcpRequests(t, world)] as [string, fc.Arbitrary<FuzzRequest>]),
  ];
  const perEndpoint = Math.ceil(opts.count / opts.seeds.length / arbitraries.length);
  const requests = opts.seeds.flatMap((seed) =>
    interleaved(arbitraries.map(([, arb], i) => fc.sample(arb, { seed: seed + i, numRuns: perEndpoint }))),
  );
  const check = answerChecker(docs, docs.tools);
  const figures: FuzzFigures = {
    seeds: opts.seeds,
    requests: 0,
    ms: 0,
    endpoints: new Map(),
    violations: [],
    slowest: { request: '', endpoint: '', kind: '', ms: 0 },
  };
  for (const [endpoint] of arbitraries) figures.endpoints.set(endpoint, { requests: 0, statuses: new Map() });
  const started = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const req = requests[next++]!;
      const sent = Date.now();
      const answer = await send(app.url, req);
      const ms = Date.now() - sent;
      if (ms > figures.slowest.ms) figures.slowest = { request: shown(req), endpoint: req.endpoint, kind: req.kind, ms };
      const tally = figures.endpoints.get(req.endpoint)!;
      tally.requests++;
      tally.statuses.set(answer.status, (tally.statuses.get(answer.status) ?? 0) + 1);
      figures.requests++;
      const problems = check(req, answer);
      if (problems.length) {
        figures.violations.push({
          endpoint: req.endpoint,
          kind: req.kind,
          request: shown(req),
          status: answer.status,
          problems,
          answer: answer.text.slice(0, 300),
        });
      }
      if (opts.log && figures.requests % 1000 === 0)
        opts.log(`  ${figures.requests}/${requests.length} requests, ${figures.violations.length} violations`);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 8 }, worker));
  figures.ms = Date.now() - started;
  return figures;
}

/** The violations grouped by endpoint, kind and problem, one example each: what a failing run prints. */
export function summary(violations: Violation[], max = 40): string {
  const groups = new Map<string, { count: number; example: Violation }>();
  for (const v of violations) {
    const key = `${v.endpoint} [${v.kind}] ${v.problems.join('; ')}`;
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { count: 1, example: v });
  }
  return [...groups.entries()]
    .slice(0, max)
    .map(([key, { count, example }]) => `${count}× ${key}\n    ${example.request}\n    → ${example.status} ${example.answer}`)
    .join('\n');
}
