// Telnyx's TeXML REST API (https://developers.telnyx.com/api-reference/texml-rest-commands): a call
// placed through the account's TeXML application (create-a-connection-scoped-texml-call, which answers
// with its call_sid) with the URL Telnyx fetches its TeXML from once answered and its status callbacks;
// a live call hung up (update-call, Status=completed); a recording's audio fetched. Bearer auth with
// the API key; errors as `{"errors":[{code, title, detail}]}`.
import type { Outbound } from '../../../outbound/client.js';
import { CarrierFailure, fetchWav, requestCarrier, type Placement } from '../carrier-api.js';

export interface TelnyxAccount {
  carrier: 'telnyx';
  /** The Telnyx account's id (a UUID). */
  accountSid: string;
  /** The TeXML application the calls are placed through. */
  connectionId: string;
  apiKey: string;
  /** The account's public key (base64), which checks Telnyx's signatures. */
  publicKey: string;
  /** https://api.telnyx.com, or a stand-in's address. */
  apiBase: string;
  timeoutMs: number;
}

const base = (account: TelnyxAccount): string => `${account.apiBase.replace(/\/$/, '')}/v2/texml`;
const bearer = (account: TelnyxAccount): string => `Bearer ${account.apiKey}`;

/** The first error's words. */
const said = (body: Record<string, unknown>): string => {
  const first = Array.isArray(body.errors) ? (body.errors[0] as Record<string, unknown> | undefined) : undefined;
  return first ? [first.code, first.title, first.detail].filter((part) => typeof part === 'string' && part).join(' ') : '';
};

/** Places the call; returns the carrier's call sid. */
export async function placeCall(account: TelnyxAccount, p: Placement): Promise<string> {
  const body = {
    To: p.to,
    From: p.from,
    Url: p.answerUrl,
    Method: 'POST',
    StatusCallback: p.statusCallback,
    StatusCallbackMethod: 'POST',
    StatusCallbackEvent: 'initiated ringing answered completed',
    Timeout: p.ringSec,
    // Telnyx documents the result of detection beside the call (texml-answering-machine), not with the TeXML request.
    MachineDetection: 'Enable',
    AsyncAmd: true,
    AsyncAmdStatusCallback: p.machineReport,
    AsyncAmdStatusCallbackMethod: 'POST',
  };
  const url = `${base(account)}/calls/${encodeURIComponent(account.connectionId)}`;
  const call = await requestCarrier(
    url,
    {
      method: 'POST',
      headers: { authorization: bearer(account), 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    },
    account.timeoutMs,
    said,
  );
  if (typeof call.call_sid !== 'string') throw new CarrierFailure('carrier_error', 'the carrier answered without a call_sid');
  return call.call_sid;
}

/** Ends a live call. */
export async function hangUpCall(account: TelnyxAccount, sid: string): Promise<void> {
  const url = `${base(account)}/Accounts/${encodeURIComponent(account.accountSid)}/Calls/${encodeURIComponent(sid)}`;
  const form = new URLSearchParams({ Status: 'completed' });
  await requestCarrier(
    url,
    {
      method: 'POST',
      headers: { authorization: bearer(account), 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form,
    },
    account.timeoutMs,
    said,
  );
}

/**
 * The audio of a recording Telnyx reported (its RecordingUrl, a WAV), through the guarded client. Only
 * Telnyx's own API host gets the API key; any other address (a pre-signed one) gets no credentials.
 */
export async function fetchRecording(outbound: Outbound, account: TelnyxAccount, recordingUrl: string): Promise<Buffer> {
  const ownHost = new URL(recordingUrl).origin === new URL(account.apiBase).origin;
  return fetchWav(outbound, recordingUrl, ownHost ? { authorization: bearer(account) } : {});
}
