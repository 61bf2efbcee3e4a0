// The Switchboard client: the raw typed clients of both APIs, and the resources built on them where
// a generated client cannot do it well (streams, waits, idempotency keys, typed errors).
import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import { errorOf, WaitTimeoutError } from './errors.js';
import type * as agent from './generated/agent-api.js';
import type * as voice from './generated/voice-api.js';
import { type Fetch, retryingFetch } from './retry.js';
import { sseData } from './sse.js';
import type {
  Call,
  CallList,
  CallResult,
  CancelTriggerRequest,
  Conversation,
  ConversationCreated,
  CreateConversationRequest,
  CreateTriggerRequest,
  EndReply,
  ListCallsQuery,
  MessageReply,
  PlaceCallRequest,
  ReplyTriggerRequest,
  SendMessageRequest,
  SteerAccepted,
  SteerCallRequest,
  StreamEvent,
  Trigger,
  TriggerAccepted,
  TriggerList,
  TriggerStatus,
} from './types.js';

export type AgentClient = Client<agent.paths>;
export type VoiceClient = Client<voice.paths>;

export interface SwitchboardOptions {
  /** The server's address, without /api/v1 or /v1 (default: SWITCHBOARD_URL). */
  baseUrl?: string;
  /** An API key (default: SWITCHBOARD_API_KEY). */
  apiKey?: string;
  /** How many times a 429 or 503 answer is retried after its Retry-After (default 2). */
  maxRetries?: number;
  /** The longest Retry-After waited for, in seconds (default 60); a longer one throws at once. */
  maxRetryWaitSec?: number;
  /** The fetch to send requests with (default: the global fetch). */
  fetch?: Fetch;
}

export interface RequestOptions {
  /** Aborts the request (and a wait or a stream). */
  signal?: AbortSignal;
}

/** The longest long poll either API holds a request for, in seconds. */
const MAX_WAIT_SEC = 60;
const FINAL_JOB_STATUSES: ReadonlySet<TriggerStatus> = new Set(['succeeded', 'failed', 'expired', 'cancelled']);

/** Seconds to hold the next long poll for, when `deadline` (ms since the epoch) is still ahead. */
const waitSecUntil = (deadline: number): number => Math.min(MAX_WAIT_SEC, Math.max(1, Math.ceil((deadline - Date.now()) / 1000)));

interface Answer<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

/** The answer's data, or its API's typed error. */
async function unwrap<D>(api: 'agent' | 'voice', pending: Promise<Answer<D>>): Promise<D> {
  const { data, error, response } = await pending;
  if (!response.ok) throw errorOf(api, response, error);
  return data as D;
}

export class Switchboard {
  /** The Agent API's typed client (openapi-fetch), for every operation: `sb.agent.GET('/jobs/{jobId}', …)`. */
  readonly agent: AgentClient;
  /** The Voice API's typed client (openapi-fetch), for every operation: `sb.voice.GET('/numbers')`. */
  readonly voice: VoiceClient;
  readonly conversations: Conversations;
  readonly messages: Messages;
  readonly jobs: Jobs;
  readonly calls: Calls;

  constructor(options: SwitchboardOptions = {}) {
    const baseUrl = (options.baseUrl ?? process.env.SWITCHBOARD_URL)?.replace(/\/+$/, '');
    const apiKey = options.apiKey ?? process.env.SWITCHBOARD_API_KEY;
    if (!baseUrl) throw new TypeError('Switchboard needs baseUrl (or SWITCHBOARD_URL)');
    if (!apiKey) throw new TypeError('Switchboard needs apiKey (or SWITCHBOARD_API_KEY)');
    const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    const common = {
      headers: { authorization: `Bearer ${apiKey}` },
      fetch: retryingFetch(send, options.maxRetries ?? 2, options.maxRetryWaitSec ?? 60),
    };
    this.agent = createClient<agent.paths>({ baseUrl: `${baseUrl}/api/v1`, ...common });
    this.voice = createClient<voice.paths>({ baseUrl: `${baseUrl}/v1`, ...common });
    this.conversations = new Conversations(this.agent);
    this.messages = new Messages(this.agent);
    this.jobs = new Jobs(this.agent);
    this.calls = new Calls(this.voice);
  }
}

export class Conversations {
  constructor(private readonly agent: AgentClient) {}

  /** POST /conversations. */
  create(body: CreateConversationRequest = {}, opts: RequestOptions = {}): Promise<ConversationCreated> {
    return unwrap('agent', this.agent.POST('/conversations', { body, signal: opts.signal }));
  }

  /** GET /conversations/{conversationId}; `include: 'all'` adds the tool and system messages. */
  get(conversationId: string, opts: RequestOptions & { include?: 'all' } = {}): Promise<Conversation> {
    const query = opts.include ? { include: opts.include } : {};
    return unwrap(
      'agent',
      this.agent.GET('/conversations/{conversationId}', { params: { path: { conversationId }, query }, signal: opts.signal }),
    );
  }

  /** POST /conversations/{conversationId}/end. */
  end(conversationId: string, opts: RequestOptions = {}): Promise<EndReply> {
    return unwrap(
      'agent',
      this.agent.POST('/conversations/{conversationId}/end', { params: { path: { conversationId } }, signal: opts.signal }),
    );
  }
}

export class Messages {
  constructor(private readonly agent: AgentClient) {}

  /** A message and the agent's whole reply (POST /conversations/{conversationId}/messages). */
  send(conversationId: string, body: SendMessageRequest, opts: RequestOptions = {}): Promise<MessageReply> {
    const params = { path: { conversationId } };
    // Without `stream` the answer is JSON: the document's other type of it is the event stream.
    const sent = this.agent.POST('/conversations/{conversationId}/messages', { params, body, signal: opts.signal });
    return unwrap('agent', sent as Promise<Answer<MessageReply>>);
  }

  /**
   * A message and the agent's reply as it happens: each event of the text/event-stream, ending with
   * `done` (or `error`). Stopping the loop early, or aborting `signal`, ends the request.
   */
  async *stream(conversationId: string, body: SendMessageRequest, opts: RequestOptions = {}): AsyncGenerator<StreamEvent, void, undefined> {
    const ending = new AbortController();
    const abort = () => ending.abort(opts.signal?.reason);
    if (opts.signal?.aborted) abort();
    opts.signal?.addEventListener('abort', abort, { once: true });
    try {
      const { data, error, response } = await this.agent.POST('/conversations/{conversationId}/messages', {
        params: { path: { conversationId } },
        body: { ...body, stream: true },
        parseAs: 'stream',
        signal: ending.signal,
      });
      if (!response.ok || !data) throw errorOf('agent', response, error);
      for await (const event of sseData(data)) yield event as StreamEvent;
    } finally {
      opts.signal?.removeEventListener('abort', abort);
      // The loop stopped before the end (break, return, throw): no one reads the rest.
      ending.abort();
    }
  }
}

export class Jobs {
  constructor(private readonly agent: AgentClient) {}

  /**
   * POST /triggers. An `idempotencyKey` is made for the job unless given, so a retried request
   * never makes a second job.
   */
  create(body: CreateTriggerRequest, opts: RequestOptions = {}): Promise<TriggerAccepted> {
    const keyed = { ...body, idempotencyKey: body.idempotencyKey ?? randomUUID() };
    return unwrap('agent', this.agent.POST('/triggers', { body: keyed, signal: opts.signal }));
  }

  /** GET /triggers/{triggerId}; with `wait` (seconds, at most 60) the server holds the answer until the status changes. */
  get(triggerId: string, opts: RequestOptions & { wait?: number } = {}): Promise<Trigger> {
    const query = opts.wait === undefined ? {} : { wait: opts.wait };
    return unwrap('agent', this.agent.GET('/triggers/{triggerId}', { params: { path: { triggerId }, query }, signal: opts.signal }));
  }

  /** GET /conversations/{conversationId}/triggers: the conversation's jobs, newest first. */
  list(conversationId: string, opts: RequestOptions & { limit?: number; offset?: number } = {}): Promise<TriggerList> {
    const { signal, ...query } = opts;
    return unwrap(
      'agent',
      this.agent.GET('/conversations/{conversationId}/triggers', { params: { path: { conversationId }, query }, signal }),
    );
  }

  /** POST /triggers/{triggerId}/cancel. */
  cancel(triggerId: string, body: CancelTriggerRequest = {}, opts: RequestOptions = {}): Promise<Trigger> {
    return unwrap('agent', this.agent.POST('/triggers/{triggerId}/cancel', { params: { path: { triggerId } }, body, signal: opts.signal }));
  }

  /** POST /triggers/{triggerId}/reply: answers a job waiting_for_reply, which resumes it. */
  reply(triggerId: string, body: ReplyTriggerRequest, opts: RequestOptions = {}): Promise<Trigger> {
    return unwrap('agent', this.agent.POST('/triggers/{triggerId}/reply', { params: { path: { triggerId } }, body, signal: opts.signal }));
  }

  /**
   * The job once it is final (succeeded, failed, expired or cancelled), long-polling GET
   * /triggers/{triggerId}?wait= (which answers at each change of status, or after the wait).
   * Throws WaitTimeoutError when it is not final within `timeoutMs` (default 5 minutes).
   */
  async waitFor(triggerId: string, opts: RequestOptions & { timeoutMs?: number } = {}): Promise<Trigger> {
    const timeoutMs = opts.timeoutMs ?? 300_000;
    const deadline = Date.now() + timeoutMs;
    let job = await this.get(triggerId, { signal: opts.signal });
    while (!FINAL_JOB_STATUSES.has(job.status)) {
      if (Date.now() >= deadline) throw new WaitTimeoutError(`Job ${triggerId} is still ${job.status} after ${timeoutMs} ms`, job);
      job = await this.get(triggerId, { wait: waitSecUntil(deadline), signal: opts.signal });
    }
    return job;
  }
}

export class Calls {
  constructor(private readonly voice: VoiceClient) {}

  /**
   * POST /calls. The Idempotency-Key is made here unless given, and every retry sends the same one,
   * so a retried request never rings twice (a replay answers the first call).
   */
  create(body: PlaceCallRequest, opts: RequestOptions & { idempotencyKey?: string } = {}): Promise<Call> {
    const header = { 'Idempotency-Key': opts.idempotencyKey ?? randomUUID() };
    return unwrap('voice', this.voice.POST('/calls', { params: { header }, body, signal: opts.signal }));
  }

  /** GET /calls/{id}. */
  get(id: string, opts: RequestOptions = {}): Promise<Call> {
    return unwrap('voice', this.voice.GET('/calls/{id}', { params: { path: { id } }, signal: opts.signal }));
  }

  /** GET /calls: a page, newest first; `next_cursor` asks for the next. */
  list(query: ListCallsQuery = {}, opts: RequestOptions = {}): Promise<CallList> {
    return unwrap('voice', this.voice.GET('/calls', { params: { query }, signal: opts.signal }));
  }

  /** POST /calls/{id}/steer: an instruction or words for the agent on a live call. */
  steer(id: string, body: SteerCallRequest, opts: RequestOptions = {}): Promise<SteerAccepted> {
    return unwrap('voice', this.voice.POST('/calls/{id}/steer', { params: { path: { id } }, body, signal: opts.signal }));
  }

  /** POST /calls/{id}/hangup. */
  hangup(id: string, opts: RequestOptions = {}): Promise<Call> {
    return unwrap('voice', this.voice.POST('/calls/{id}/hangup', { params: { path: { id } }, body: {}, signal: opts.signal }));
  }

  /**
   * GET /calls/{id}/result. With `wait` (seconds, any length) the result is long-polled until it is
   * final or the time is up; check `final` on the answer.
   */
  async result(id: string, opts: RequestOptions & { wait?: number } = {}): Promise<CallResult> {
    const read = (wait?: number) =>
      unwrap('voice', this.voice.GET('/calls/{id}/result', { params: { path: { id }, query: wait ? { wait } : {} }, signal: opts.signal }));
    const deadline = Date.now() + (opts.wait ?? 0) * 1000;
    let result = await read(opts.wait ? waitSecUntil(deadline) : undefined);
    while (!result.final && Date.now() < deadline) result = await read(waitSecUntil(deadline));
    return result;
  }
}
