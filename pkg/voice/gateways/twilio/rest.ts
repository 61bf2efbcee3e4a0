// Twilio's Calls resource (https://www.twilio.com/docs/voice/api/call-resource): a call placed with
// the URL Twilio fetches its TwiML from once answered, its status callbacks, and a live call hung
// up. Every failure says why in `CarrierFailure.hangupCause`, which becomes the call's hangup_cause.
// And its Recording resource: a voicemail's audio, fetched as WAV.
import { OutboundError, type Outbound } from '../../../outbound/client.js';
import { CarrierFailure, fetchWav, requestCarrier, type Placement } from '../carrier-api.js';

export interface TwilioAccount {
  carrier: 'twilio';
  accountSid: string;
  authToken: string;
  /** https://api.twilio.com, or a stand-in's address. */
  apiBase: string;
  timeoutMs: number;
}

const basicAuth = (account: TwilioAccount): string =>
  `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}`;

async function post(account: TwilioAccount, path: string, form: URLSearchParams): Promise<Record<string, unknown>> {
  const url = `${account.apiBase.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(account.accountSid)}${path}`;
  const init = {
    method: 'POST',
    headers: { authorization: basicAuth(account), 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  };
  // Twilio's error JSON: https://www.twilio.com/docs/usage/twilios-response
  return requestCarrier(url, init, account.timeoutMs, (body) =>
    typeof body.message === 'string' ? `${body.code ?? ''} ${body.message}` : '',
  );
}

/** Places the call; returns the carrier's call sid. */
export async function placeCall(account: TwilioAccount, p: Placement): Promise<string> {
  const form = new URLSearchParams({
    To: p.to,
    From: p.from,
    Url: p.answerUrl,
    Method: 'POST',
    StatusCallback: p.statusCallback,
    StatusCallbackMethod: 'POST',
    Timeout: String(p.ringSec),
    // Answering machines are told apart before the TwiML is asked for (AnsweredBy).
    MachineDetection: 'Enable',
  });
  for (const event of ['initiated', 'ringing', 'answered', 'completed']) form.append('StatusCallbackEvent', event);
  const call = await post(account, '/Calls.json', form);
  if (typeof call.sid !== 'string') throw new CarrierFailure('carrier_error', 'the carrier answered without a call sid');
  return call.sid;
}

/** Ends a live call (a ringing one is canceled). */
export async function hangUpCall(account: TwilioAccount, sid: string): Promise<void> {
  await post(account, `/Calls/${encodeURIComponent(sid)}.json`, new URLSearchParams({ Status: 'completed' }));
}

/**
 * The audio of a recording the carrier reported (its RecordingUrl, https://www.twilio.com/docs/voice/api/recording#fetch-a-recording-media-file),
 * as WAV, through the guarded client; only from the carrier's own API host, which gets the account's credentials.
 */
export async function fetchRecording(outbound: Outbound, account: TwilioAccount, recordingUrl: string): Promise<Buffer> {
  const url = new URL(`${recordingUrl}.wav`);
  if (url.origin !== new URL(account.apiBase).origin)
    throw new OutboundError(`refused: a recording is fetched from ${new URL(account.apiBase).host} only`);
  return fetchWav(outbound, url.toString(), { authorization: basicAuth(account) });
}
