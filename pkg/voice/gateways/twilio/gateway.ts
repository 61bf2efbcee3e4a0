// Calls through Twilio: placed over its REST API, the answered call connected to this deployment's
// relay socket by the TwiML Twilio asks for (api/voice/carrier.ts). From there the carrier conducts
// the line: its states arrive as status callbacks and its conversation over the relay socket, each
// at whichever API replica Twilio reaches, so the controller that placed the call only waits.
import type { Knex } from 'knex';
import type { Ctx } from '../../../context.js';
import { publicUrl, type Config } from '../../../config.js';
import type { Logger } from '../../../log.js';
import { callById } from '../../../store/calls.js';
import { isLive } from '../../state.js';
import type { DialRequest, Line, LineEvent, Recorder } from '../gateway.js';
import { hangUpCall, placeCall, type TwilioAccount } from './rest.js';
import { relayToken } from './relay-token.js';
import { connectToRelay } from './twiml.js';

/** How long a placed call may ring before the carrier gives up. */
const RING_SEC = 30;
/** How long the relay parameter of a placed call stays good: ringing, then answering-machine detection. */
const RELAY_TOKEN_MS = 10 * 60_000;

export const carrierPath = '/v1/carrier/twilio';

/** The public address of a carrier endpoint. */
export const carrierUrl = (config: Config, path: string): string => `${publicUrl(config)}${carrierPath}${path}`;

/** The relay socket's address (wss://), without its query. */
export const relaySocketBase = (config: Config): string => carrierUrl(config, '/relay').replace(/^https:/, 'wss:');

/** The relay socket's address for calls of `tenantId`, whose credentials sign its handshake. */
const relaySocketUrl = (config: Config, tenantId: string): string => `${relaySocketBase(config)}?${new URLSearchParams({ tenant: tenantId })}`;

/** The TwiML of an answered call of `tenantId`: connected to the relay socket, which learns the call from `token`. */
export const relayTwiml = (config: Config, tenantId: string, token: string, machine: boolean): string =>
  connectToRelay({ url: relaySocketUrl(config, tenantId), parameters: { relay: token, machine: String(machine) }, action: carrierUrl(config, '/relay-ended') });

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

/** Places the call through `account` (its tenant's carrier account); the carrier conducts it from there. */
export async function dialTwilio(ctx: Pick<Ctx, 'config' | 'db' | 'log'>, account: TwilioAccount, { callId, from, to }: DialRequest): Promise<Line> {
  const token = relayToken(account.authToken, callId, new Date(Date.now() + RELAY_TOKEN_MS));
  const sid = await placeCall(account, {
    to,
    from,
    answerUrl: `${carrierUrl(ctx.config, '/answer')}?relay=${encodeURIComponent(token)}`,
    statusCallback: `${carrierUrl(ctx.config, '/status')}?call=${encodeURIComponent(callId)}`,
    ringSec: RING_SEC,
  });
  return new CarriedLine(account, ctx.db, ctx.log, callId, sid);
}
