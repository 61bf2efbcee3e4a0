// What each real carrier implements (carrier.ts picks one by the account), and what they share.
import type { IncomingHttpHeaders } from 'node:http';
import { OutboundError, type Outbound } from '../../outbound/client.js';
import type { TranscriptionProvider, Voice } from '../voices.js';

/** Why placing or ending a call at the carrier failed. */
export class CarrierFailure extends Error {
  constructor(
    /** carrier_rejected: a 4xx (the carrier's code in the message); carrier_error: 5xx or unreadable; carrier_timeout. */
    readonly hangupCause: 'carrier_rejected' | 'carrier_error' | 'carrier_timeout',
    message: string,
  ) {
    super(message);
  }
}

/**
 * A request to the carrier's REST API: its JSON answer, or a CarrierFailure saying why not, with the
 * carrier's own words of an error (`said`, from its error body).
 */
export async function requestCarrier(
  url: string,
  init: RequestInit,
  timeoutMs: number,
  said: (body: Record<string, unknown>) => string,
): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    throw new CarrierFailure(
      timedOut ? 'carrier_timeout' : 'carrier_error',
      `the carrier ${timedOut ? 'did not answer in time' : 'could not be reached'}`,
    );
  }
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (res.ok && body) return body;
  const words = body ? said(body) : '';
  throw new CarrierFailure(
    res.status >= 400 && res.status < 500 ? 'carrier_rejected' : 'carrier_error',
    `the carrier answered HTTP ${res.status}${words ? `: ${words}` : ''}`,
  );
}

/** A WAV holds 120 s of 8 kHz 16-bit audio on two channels in well under this. */
const MAX_RECORDING_BYTES = 8 * 1024 * 1024;

/** A recording's audio, fetched from `url` through the guarded client with `headers` (the carrier's credentials, if any). */
export async function fetchWav(outbound: Outbound, url: string, headers: Record<string, string>): Promise<Buffer> {
  const res = await outbound.request({ method: 'GET', url, headers, maxBytes: MAX_RECORDING_BYTES });
  if (res.status !== 200 || res.truncated)
    throw new OutboundError(`the carrier answered HTTP ${res.status}${res.truncated ? ' with a recording too long' : ''}`);
  return res.bytes;
}

export interface Placement {
  to: string;
  from: string;
  /** Where the carrier asks for the call's TwiML once it is answered. */
  answerUrl: string;
  statusCallback: string;
  /** Where a carrier whose detection of answering machines runs beside the call (Telnyx's) reports it; Twilio's comes with the TwiML request. */
  machineReport: string;
  /** How long it rings before no-answer. */
  ringSec: number;
}

/** A request from the carrier as it arrived: the public address it was sent to, its headers and body. */
export interface CarrierRequest {
  url: string;
  headers: IncomingHttpHeaders;
  /** The body as sent (empty for a GET or a WebSocket handshake). */
  rawBody: Buffer;
  /** The body's form parameters. */
  params: Record<string, string | string[]>;
}

export interface Carrier<A> {
  /** Places the call; returns the carrier's call sid. */
  placeCall(account: A, p: Placement): Promise<string>;
  /** Ends a live call (a ringing one is canceled). */
  hangUpCall(account: A, sid: string): Promise<void>;
  /** The audio of a recording the carrier reported at `recordingUrl`, as WAV. */
  fetchRecording(outbound: Outbound, account: A, recordingUrl: string): Promise<Buffer>;
  /** Whether the carrier signed `req`, compared in constant time where a secret signs it. */
  isSigned(account: A, req: CarrierRequest, now: Date): boolean;
  /** Whether the carrier's signature covers the address, of its requests and of the relay socket's handshake (isSigned, with no body). */
  signsAddresses: boolean;
  /** The secret the relay parameters of the account's calls are signed with. */
  relayKey(account: A): string;
  /** The attributes of <ConversationRelay> and <Language> naming the voice (none: the carrier's default) and the transcription provider, in the carrier's terms. */
  speechAttributes(voice: Voice | undefined, transcription: TranscriptionProvider): Record<string, string>;
}
