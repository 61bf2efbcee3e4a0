// Calls through Twilio: placed over its REST API, the answered call connected to this deployment's
// relay socket by the TwiML Twilio asks for (api/voice/carrier.ts). From there the carrier conducts
// the line: its states arrive as status callbacks and its conversation over the relay socket, each
// at whichever API replica Twilio reaches, so the controller that placed the call only waits.
import type { Knex } from 'knex';
import { publicUrl, type Config } from '../../../config.js';
import type { Logger } from '../../../log.js';
import { callById } from '../../../store/calls.js';
import { isLive } from '../../state.js';
import type { Gateway, Line, LineEvent, Recorder } from '../gateway.js';
import { hangUpCall, placeCall, type TwilioAccount } from './rest.js';
import { relayToken } from './relay-token.js';
import { connectToRelay } from './twiml.js';

/** How long a placed call may ring before the carrier gives up. */
const RING_SEC = 30;
/** How long the relay parameter of a placed call stays good: ringing, then answering-machine detection. */
const RELAY_TOKEN_MS = 10 * 60_000;

export const carrierPath = '/v1/carrier/twilio';

export function twilioAccount(config: Config): TwilioAccount {
  return {
    accountSid: config.TWILIO_ACCOUNT_SID!,
    authToken: config.TWILIO_AUTH_TOKEN!,
    apiBase: config.TWILIO_API_BASE,
    timeoutMs: config.SWITCHBOARD_OUTBOUND_TIMEOUT_MS,
  };
}

/** The public address of a carrier endpoint. */
export const carrierUrl = (config: Config, path: string): string => `${publicUrl(config)}${carrierPath}${path}`;

/** The relay socket's address (wss://). */
export const relaySocketUrl = (config: Config): string => carrierUrl(config, '/relay').replace(/^https:/, 'wss:');

/** The TwiML of an answered call: connected to the relay socket, which learns the call from `token`. */
export const relayTwiml = (config: Config, token: string, machine: boolean): string =>
  connectToRelay({ url: relaySocketUrl(config), parameters: { relay: token, machine: String(machine) }, action: carrierUrl(config, '/relay-ended') });

/** A call the carrier conducts: nothing comes from it here; the row says how it goes. */
class CarriedLine implements Line {
  constructor(
    private readonly account: TwilioAccount,
    private readonly db: Knex,
    private readonly log: Logger,
    readonly callId: string,
    readonly carrierSid: string,
  ) {}

  next(): Promise<LineEvent> {
    return new Promise(() => {});
  }

  async say(): Promise<void> {
    throw new Error('a carried call speaks over its relay socket');
  }

  record(): Recorder {
    throw new Error('a carried call is heard over its relay socket');
  }

  /** Ends the call at the carrier, unless a relay session conducts it now (which ends it itself). */
  async hangup(): Promise<void> {
    const row = await callById(this.db, this.callId);
    if (row?.relay_session && isLive(row.status)) return;
    // The call may be over at the carrier already: nothing more to do then.
    await hangUpCall(this.account, this.carrierSid).catch((err: Error) => this.log.info({ callId: this.callId, err: err.message }, 'carrier hang-up refused'));
  }
}

export function createTwilioGateway(config: Config, db: Knex, log: Logger): Gateway {
  const account = twilioAccount(config);
  return {
    name: 'twilio',
    async dial({ callId, from, to }) {
      const token = relayToken(account.authToken, callId, new Date(Date.now() + RELAY_TOKEN_MS));
      const sid = await placeCall(account, {
        to,
        from,
        answerUrl: `${carrierUrl(config, '/answer')}?relay=${encodeURIComponent(token)}`,
        statusCallback: `${carrierUrl(config, '/status')}?call=${encodeURIComponent(callId)}`,
        ringSec: RING_SEC,
      });
      return new CarriedLine(account, db, log, callId, sid);
    },
    async pickUp() {
      throw new Error('calls ringing in through Twilio are answered by its voice webhook');
    },
  };
}
