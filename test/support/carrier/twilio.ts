// A stand-in of Twilio's Programmable Voice REST API on loopback HTTPS, for the carrier gateway's
// tests: Basic auth with the account SID and auth token, the Calls resource (create, fetch, update
// to hang up or give new TwiML) with Twilio's validation errors and error JSON, and each placed
// call played by the scenario of its `To` number (call.ts). A test can make the next placement
// answer an error or never answer, and ring one of the application's numbers (`ringIn`). The
// Recording resource serves what <Record> recorded (.wav, .json).
// Sources:
//   https://www.twilio.com/docs/voice/api/call-resource (create, fetch, update; Status=completed|canceled)
//   https://www.twilio.com/docs/usage/requests-to-twilio (Basic auth with AccountSid:AuthToken)
//   https://www.twilio.com/docs/usage/twilios-response (error JSON: code, message, more_info, status)
//   https://www.twilio.com/docs/api/errors/20003, /21201, /21205, /21210, /21211, /21220, /21603, /20404
//   https://www.twilio.com/docs/voice/api/recording (fetch a recording's metadata, or its media file by extension)
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  API_VERSION,
  CarrierCall,
  sid,
  type CallerScript,
  type ForcedAnswer,
  type GatherAnswer,
  type Message,
  type Recording,
  type Scenario,
  type WebhookSent,
} from './call.js';
import { startHttpsServer, type RecordedRequest } from '../https.js';
import { formParams, twilioSignature, type TwilioParams } from './twilio-signature.js';
import { twilioRelayNoun } from './conversation-relay.js';

export type { CallerScript, ForcedAnswer, GatherAnswer, Message, Recording, Scenario, WebhookSent } from './call.js';
export { CarrierCall } from './call.js';

export interface TwilioAccountOptions {
  accountSid: string;
  authToken: string;
  /** The account's own numbers, the only ones allowed as From; any From when not given. */
  numbers?: string[];
}

export interface TwilioOptions extends TwilioAccountOptions {
  /** How each called number behaves; a number not listed does not answer. */
  phones?: Record<string, Scenario>;
}

export interface InboundCall {
  to: string;
  from: string;
  /** The number's voice webhook (its "A call comes in" URL). */
  voiceUrl: string;
  statusCallback?: string;
  caller?: CallerScript;
  /** Answered at each <Gather> in turn. */
  gathers?: GatherAnswer[];
  /** Left at a <Record>. */
  message?: Message;
  /** The account whose number rings (and whose token signs its requests); the first account's when not given. */
  accountSid?: string;
}

export interface TwilioStandIn {
  /** The API's base URL (https://127.0.0.1:PORT), in place of https://api.twilio.com. */
  url: string;
  accountSid: string;
  authToken: string;
  /** Another account at the same address. */
  addAccount(account: TwilioAccountOptions): void;
  /** The calls placed (and rung in), in order. */
  calls: CarrierCall[];
  /** Every request the REST API received, as sent. */
  requests: RecordedRequest[];
  phones: Record<string, Scenario>;
  /** The next placement answers this instead (then placements work again). */
  failNextPlacement(answer: ForcedAnswer): void;
  /** The next update of a call (a hang-up, new TwiML) answers this instead, changing nothing. */
  failNextUpdate(answer: ForcedAnswer): void;
  /** An inbound call to one of the application's numbers. */
  ringIn(call: InboundCall): CarrierCall;
  call(sid: string): CarrierCall;
  /** Every request made to the application, call by call. */
  webhooks(): WebhookSent[];
  /** What <Record> recorded, on every call. */
  recordings: Recording[];
  close(): Promise<void>;
}

/** The settings of a deployment whose carrier is `twilio`, which Twilio reaches at `publicUrl`. */
export const carrierSettings = (
  twilio: Pick<TwilioStandIn, 'accountSid' | 'authToken' | 'url'>,
  publicUrl: string,
): Record<string, string> => ({
  SWITCHBOARD_CARRIER: 'twilio',
  TWILIO_ACCOUNT_SID: twilio.accountSid,
  TWILIO_AUTH_TOKEN: twilio.authToken,
  TWILIO_API_BASE: twilio.url,
  SWITCHBOARD_PUBLIC_URL: publicUrl,
});

const E164 = /^\+[1-9]\d{6,14}$/;

class TwilioError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function reply(res: ServerResponse, status: number, body: object) {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

function replyError(res: ServerResponse, error: TwilioError) {
  const headers = error.status === 401 ? { 'WWW-Authenticate': 'Basic realm="Twilio API"' } : {};
  res.writeHead(error.status, { 'Content-Type': 'application/json', ...headers });
  res.end(
    JSON.stringify({
      code: error.code,
      message: error.message,
      more_info: `https://www.twilio.com/docs/errors/${error.code}`,
      status: error.status,
    }),
  );
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** Twilio's checks of a placement, in the order it reports them. */
function checkPlacement(params: TwilioParams, numbers: string[] | undefined) {
  const one = (name: string) => (typeof params[name] === 'string' ? (params[name] as string) : undefined);
  const to = one('To');
  const from = one('From');
  if (!to) throw new TwilioError(400, 21201, "No 'To' number is specified");
  if (!E164.test(to)) throw new TwilioError(400, 21211, `Invalid 'To' Phone Number: ${to}`);
  if (!from) throw new TwilioError(400, 21603, "A 'From' phone number is required.");
  if (numbers && !numbers.includes(from))
    throw new TwilioError(400, 21210, `The source phone number provided, ${from}, is not yet verified for your account.`);
  const url = one('Url');
  if (!url && !one('Twiml') && !one('ApplicationSid'))
    throw new TwilioError(400, 21205, 'Either Url, Twiml or ApplicationSid is required.');
  if (url && !isHttpUrl(url)) throw new TwilioError(400, 21205, `Url is not a valid URL: ${url}`);
  const callback = one('StatusCallback');
  if (callback && !isHttpUrl(callback)) throw new TwilioError(400, 21609, `StatusCallback is not a valid URL: ${callback}`);
}

export async function startTwilio(options: TwilioOptions): Promise<TwilioStandIn> {
  const { accountSid, authToken } = options;
  const calls: CarrierCall[] = [];
  const phones = { ...options.phones };
  const forced: ForcedAnswer[] = [];
  const forcedUpdates: ForcedAnswer[] = [];
  const recordings: Recording[] = [];
  const accounts = new Map<string, TwilioAccountOptions>();
  const addAccount = (account: TwilioAccountOptions) => void accounts.set(account.accountSid, account);
  addAccount(options);
  let apiUrl = '';
  const contextOf = (account: TwilioAccountOptions) => ({
    accountSid: account.accountSid,
    signer: {
      request: (url: string, params: TwilioParams) => ({
        'X-Twilio-Signature': twilioSignature(account.authToken, url, params),
        'User-Agent': 'TwilioProxy/1.1',
      }),
      handshake: (url: string) => ({ 'X-Twilio-Signature': twilioSignature(account.authToken, url) }),
    },
    relayNoun: twilioRelayNoun,
    newSid: () => sid('CA'),
    recordingUrl: (recording: Recording) => `${apiUrl}/${API_VERSION}/Accounts/${account.accountSid}/Recordings/${recording.sid}`,
    phones,
    recordings,
  });
  const callsPath = (sid: string) => `/${API_VERSION}/Accounts/${sid}/Calls`;

  const findCall = (account: TwilioAccountOptions, sid: string, path: string) => {
    const call = calls.find((c) => c.sid === sid && c.accountSid === account.accountSid);
    if (!call) throw new TwilioError(404, 20404, `The requested resource ${path} was not found`);
    return call;
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const path = new URL(req.url ?? '/', 'https://api.twilio.com').pathname;
    const account = accounts.get(path.split('/')[3] ?? '');
    const expected = account && `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}`;
    if (!account || req.headers.authorization !== expected) throw new TwilioError(401, 20003, 'Authenticate');
    const base = callsPath(account.accountSid);
    const recordingsBase = `/${API_VERSION}/Accounts/${account.accountSid}/Recordings/`;
    const params = formParams(body);
    if (path === `${base}.json` && req.method === 'POST') {
      const answer = forced.shift();
      if (answer === 'hang') return; // the connection stays open, unanswered
      if (answer)
        throw new TwilioError(
          answer.status,
          answer.code ?? (answer.status >= 500 ? 20500 : 20001),
          answer.message ?? 'Internal Server Error',
        );
      checkPlacement(params, account.numbers);
      const call = new CarrierCall(contextOf(account), params, 'outbound-api', phones[String(params.To)] ?? { answer: 'no-answer' });
      calls.push(call);
      return reply(res, 201, call.toResource());
    }
    if (path.startsWith(recordingsBase) && req.method === 'GET') {
      const [recordingSid, extension] = path.slice(recordingsBase.length).split('.');
      const recording = recordings.find((r) => r.sid === recordingSid && r.accountSid === account.accountSid);
      if (!recording) throw new TwilioError(404, 20404, `The requested resource ${path} was not found`);
      if (extension === 'wav')
        return void res.writeHead(200, { 'Content-Type': 'audio/x-wav', 'Content-Length': recording.wav.length }).end(recording.wav);
      if (extension === 'json') {
        return reply(res, 200, {
          sid: recording.sid,
          account_sid: account.accountSid,
          call_sid: recording.callSid,
          duration: String(recording.seconds),
          status: 'completed',
          channels: 1,
          source: 'RecordVerb',
        });
      }
      throw new TwilioError(404, 20404, `The requested resource ${path} was not found`);
    }
    const match = path.startsWith(`${base}/`) && path.endsWith('.json') ? path.slice(base.length + 1, -'.json'.length) : undefined;
    if (match && req.method === 'GET') return reply(res, 200, findCall(account, match, path).toResource());
    if (match && req.method === 'POST') {
      const call = findCall(account, match, path);
      const refusal = forcedUpdates.shift();
      if (refusal === 'hang') return;
      if (refusal)
        throw new TwilioError(
          refusal.status,
          refusal.code ?? (refusal.status >= 500 ? 20500 : 20001),
          refusal.message ?? 'Internal Server Error',
        );
      const { Twiml: twiml, Url: url, Method: method } = params;
      if (typeof twiml === 'string' || typeof url === 'string') {
        if (call.status !== 'in-progress') throw new TwilioError(400, 21220, 'Call is not in-progress. Cannot redirect.');
        call.redirect(typeof twiml === 'string' ? { twiml } : { url: url as string, method: typeof method === 'string' ? method : 'POST' });
      }
      if (params.Status === 'completed' || params.Status === 'canceled') call.hangUpByApi(params.Status);
      else if (params.Status !== undefined) throw new TwilioError(400, 20001, `Invalid Status: ${params.Status}`);
      return reply(res, 200, call.toResource());
    }
    throw new TwilioError(404, 20404, `The requested resource ${path} was not found`);
  };

  const server = await startHttpsServer((req, res) => {
    try {
      handle(req, res, server.requests.at(-1)!.body);
    } catch (error) {
      if (!(error instanceof TwilioError)) throw error;
      replyError(res, error);
    }
  });

  apiUrl = server.url;
  return {
    url: server.url,
    recordings,
    accountSid,
    authToken,
    calls,
    requests: server.requests,
    phones,
    addAccount,
    failNextPlacement: (answer) => forced.push(answer),
    failNextUpdate: (answer) => forcedUpdates.push(answer),
    ringIn: ({ to, from, voiceUrl, statusCallback, caller, gathers, message, accountSid: owner = accountSid }) => {
      const params = { To: to, From: from, VoiceUrl: voiceUrl, ...(statusCallback ? { StatusCallback: statusCallback } : {}) };
      const call = new CarrierCall(contextOf(accounts.get(owner)!), params, 'inbound', {
        answer: 'human',
        caller,
        gathers: [...(gathers ?? [])],
        message,
      });
      calls.push(call);
      return call;
    },
    call: (sid) => {
      const call = calls.find((c) => c.sid === sid);
      if (!call) throw new TwilioError(404, 20404, `The requested resource ${callsPath(accountSid)}/${sid}.json was not found`);
      return call;
    },
    webhooks: () => calls.flatMap((c) => c.webhooks),
    close: async () => {
      for (const call of calls) await call.relay?.disconnect();
      await server.close();
    },
  };
}
