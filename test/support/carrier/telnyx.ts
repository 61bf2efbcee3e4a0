// A stand-in of Telnyx's TeXML REST API on loopback HTTPS, for the carrier gateway's tests: Bearer auth
// with the API key, a call created through a TeXML application (its connection id) answering with its
// call_sid, a live call updated (Status=completed hangs it up), and recordings served by URL. Each call
// is played by the TwiML-compatible interpreter (call.ts) by the scenario of its `To` number; what it sends
// the application is signed as Telnyx signs webhooks: Ed25519 over `<timestamp>|<body>`, with headers
// telnyx-signature-ed25519 and telnyx-timestamp. The relay socket's handshake carries no signature.
// Sources:
//   https://developers.telnyx.com/api-reference/texml-rest-commands/create-a-connection-scoped-texml-call
//     (From, To, Url, Method, StatusCallback…; a flat answer with call_sid, "v3:…")
//   https://developers.telnyx.com/api-reference/texml-rest-commands/update-call (form body; Status=completed ends the call)
//   https://developers.telnyx.com/api-reference/callbacks/texml-call-completed (form-encoded, signed; CallStatus values)
//   https://developers.telnyx.com/docs/development/api-fundamentals/webhooks (Ed25519 of timestamp|payload, the account's public key)
//   https://developers.telnyx.com/docs/voice/programmable-voice/texml-twiml-compatibility (the TwiML verbs TeXML plays)
//   https://developers.telnyx.com/api-reference/websockets/conversationrelay-websocket-channel (the relay's frames)
//   Errors: {"errors":[{"code":"10009","title":"Authentication failed",…}]}, 422 {"errors":[{"code":"10004",…,"source":{"pointer":"/To"}}]}
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { telnyxRelayNoun } from './conversation-relay.js';
import { CarrierCall, type ForcedAnswer, type Recording, type Scenario, type WebhookSent } from './call.js';
import { startHttpsServer, type RecordedRequest } from '../https.js';
import type { InboundCall } from './twilio.js';

export interface TelnyxOptions {
  accountSid: string;
  connectionId: string;
  apiKey: string;
  /** How each called number behaves; a number not listed does not answer. */
  phones?: Record<string, Scenario>;
}

export interface TelnyxStandIn {
  /** The API's base URL (https://127.0.0.1:PORT), in place of https://api.telnyx.com. */
  url: string;
  accountSid: string;
  connectionId: string;
  apiKey: string;
  /** The account's Ed25519 public key, base64 of its 32 bytes, as the portal shows it. */
  publicKey: string;
  /** The headers Telnyx would sign `body` with, at `timestamp` (Unix seconds). */
  signed(body: string, timestamp?: number): Record<string, string>;
  calls: CarrierCall[];
  requests: RecordedRequest[];
  phones: Record<string, Scenario>;
  recordings: Recording[];
  failNextPlacement(answer: ForcedAnswer): void;
  ringIn(call: Omit<InboundCall, 'accountSid'>): CarrierCall;
  webhooks(): WebhookSent[];
  close(): Promise<void>;
}

/** The settings of a deployment whose carrier is `telnyx`, which Telnyx reaches at `publicUrl`. */
export const telnyxSettings = (telnyx: TelnyxStandIn, publicUrl: string): Record<string, string> => ({
  SWITCHBOARD_CARRIER: 'telnyx',
  TELNYX_ACCOUNT_SID: telnyx.accountSid,
  TELNYX_CONNECTION_ID: telnyx.connectionId,
  TELNYX_API_KEY: telnyx.apiKey,
  TELNYX_PUBLIC_KEY: telnyx.publicKey,
  TELNYX_API_BASE: telnyx.url,
  SWITCHBOARD_PUBLIC_URL: publicUrl,
});

const E164 = /^\+[1-9]\d{6,14}$/;

class TelnyxError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail: string,
    readonly pointer?: string,
  ) {
    super(detail);
  }
}

function reply(res: ServerResponse, status: number, body: object) {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

const callSid = () => `v3:${randomBytes(24).toString('base64url')}`;

export async function startTelnyx(options: TelnyxOptions): Promise<TelnyxStandIn> {
  const { accountSid, connectionId, apiKey } = options;
  const keys = generateKeyPairSync('ed25519');
  const publicKey = Buffer.from(keys.publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('base64');
  const signed = (body: string, timestamp = Math.floor(Date.now() / 1000)) => ({
    'telnyx-signature-ed25519': sign(null, Buffer.from(`${timestamp}|${body}`), keys.privateKey).toString('base64'),
    'telnyx-timestamp': String(timestamp),
  });
  const calls: CarrierCall[] = [];
  const phones = { ...options.phones };
  const recordings: Recording[] = [];
  const forced: ForcedAnswer[] = [];
  let apiUrl = '';
  const context = {
    accountSid,
    signer: {
      request: (_url: string, _params: unknown, body: string | undefined) => ({ ...signed(body ?? ''), 'User-Agent': 'Telnyx Webhooks' }),
      handshake: () => ({}),
    },
    relayNoun: telnyxRelayNoun,
    newSid: callSid,
    recordingUrl: (recording: Recording) => `${apiUrl}/v2/recordings/${recording.sid}.wav`,
    phones,
    recordings,
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    if (req.headers.authorization !== `Bearer ${apiKey}`)
      throw new TelnyxError(401, '10009', 'Authentication failed', 'Could not understand the provided credentials.');
    const path = new URL(req.url ?? '/', 'https://api.telnyx.com').pathname;
    if (req.method === 'POST' && path === `/v2/texml/calls/${encodeURIComponent(connectionId)}`) {
      const answer = forced.shift();
      if (answer === 'hang') return; // the connection stays open, unanswered
      if (answer)
        throw new TelnyxError(
          answer.status,
          String(answer.code ?? (answer.status >= 500 ? 10007 : 10015)),
          'Request failed',
          answer.message ?? 'Unexpected error',
        );
      if (!String(req.headers['content-type']).startsWith('application/json'))
        throw new TelnyxError(415, '10002', 'Unsupported media type', 'The body must be JSON');
      const params = JSON.parse(body) as Record<string, unknown>;
      for (const name of ['To', 'From']) {
        if (typeof params[name] !== 'string' || !E164.test(params[name]))
          throw new TelnyxError(422, '10004', 'Invalid parameter', `${name} must be an E.164 number`, `/${name}`);
      }
      if (typeof params.Url !== 'string') throw new TelnyxError(422, '10004', 'Invalid parameter', 'Url or Texml is required', '/Url');
      const strings = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, String(value)]));
      const call = new CarrierCall(context, strings, 'outbound-api', phones[strings.To!] ?? { answer: 'no-answer' });
      calls.push(call);
      return reply(res, 200, { call_sid: call.sid, from: strings.From, to: strings.To, status: 'queued' });
    }
    const callsBase = `/v2/texml/Accounts/${accountSid}/Calls/`;
    if (req.method === 'POST' && path.startsWith(callsBase)) {
      const call = calls.find((c) => c.sid === decodeURIComponent(path.slice(callsBase.length)));
      if (!call) throw new TelnyxError(404, '10005', 'Resource not found', 'Resource not found');
      const status = new URLSearchParams(body).get('Status');
      if (status !== 'completed')
        throw new TelnyxError(422, '10032', 'Invalid enumerated value', 'Status must be one of completed', '/Status');
      call.hangUpByApi('completed');
      return reply(res, 200, { sid: call.sid, account_sid: accountSid, status: call.status, to: call.params.To, from: call.params.From });
    }
    const recording = req.method === 'GET' && recordings.find((r) => path === `/v2/recordings/${r.sid}.wav`);
    if (recording)
      return void res.writeHead(200, { 'Content-Type': 'audio/wav', 'Content-Length': recording.wav.length }).end(recording.wav);
    throw new TelnyxError(404, '10005', 'Resource not found', 'Resource not found');
  };

  const server = await startHttpsServer((req, res) => {
    try {
      handle(req, res, server.requests.at(-1)!.body);
    } catch (error) {
      if (!(error instanceof TelnyxError)) throw error;
      reply(res, error.status, {
        errors: [
          { code: error.code, title: error.title, detail: error.detail, ...(error.pointer && { source: { pointer: error.pointer } }) },
        ],
      });
    }
  });
  apiUrl = server.url;
  return {
    url: server.url,
    accountSid,
    connectionId,
    apiKey,
    publicKey,
    signed,
    calls,
    requests: server.requests,
    phones,
    recordings,
    failNextPlacement: (answer) => forced.push(answer),
    ringIn: ({ to, from, voiceUrl, statusCallback, caller, gathers, message }) => {
      const params = {
        To: to,
        From: from,
        VoiceUrl: voiceUrl,
        ConnectionId: connectionId,
        ...(statusCallback ? { StatusCallback: statusCallback } : {}),
      };
      const call = new CarrierCall(context, params, 'inbound', { answer: 'human', caller, gathers: [...(gathers ?? [])], message });
      calls.push(call);
      return call;
    },
    webhooks: () => calls.flatMap((c) => c.webhooks),
    close: async () => {
      for (const call of calls) await call.relay?.disconnect();
      await server.close();
    },
  };
}
