// Calls through a real carrier (carrier.ts): placed over its REST API, the answered call connected to
// this deployment's relay socket by the TwiML the carrier asks for (api/voice/carrier.ts). From there
// the carrier conducts the line: its states arrive as status callbacks and its conversation over the
// relay socket, each at whichever API replica it reaches, so the controller that placed the call only waits.
import type { Knex } from 'knex';
import type { Ctx } from '../../context.js';
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import { callById } from '../../store/calls/get.js';
import { isLive } from '../state.js';
import { carrierAddress, carrierOf, carrierUrl, type CarrierAccount, type CarrierName } from './carrier.js';
import type { DialRequest, Line, LineEvent, Recorder } from './gateway.js';
import { relayToken } from './relay-token.js';
import { connectToRelay } from './twiml.js';
import type { relaySpeech, SpokenLanguage } from '../voices.js';

/** How long a placed call may ring before the carrier gives up. */
const RING_SEC = 30;
/** How long the relay parameter of a placed call stays good: ringing, then answering-machine detection. */
const PLACED_RELAY_TOKEN_MS = 10 * 60_000;

/** The relay socket's address (wss://), without its query. */
export const relaySocketBase = (config: Config, carrier: CarrierName): string =>
  carrierUrl(config, carrier, '/relay').replace(/^https:/, 'wss:');

/**
 * The TwiML of an answered call of `tenantId` (on `account`): connected to the relay socket, which learns the call
 * from `token`, speaking as `speech` says (speechOfCall). The socket's address names the tenant, whose carrier account
 * signs the handshake, or, for a carrier that signs none, carries the token too.
 */
export function relayTwiml(
  config: Config,
  account: CarrierAccount,
  tenantId: string,
  token: string,
  machine: boolean,
  speech: ReturnType<typeof relaySpeech>,
): string {
  const carrier = carrierOf(account);
  const declared = ({ voice }: SpokenLanguage) => carrier.speechAttributes(voice, config.SWITCHBOARD_TRANSCRIPTION_PROVIDER);
  return connectToRelay({
    url: `${relaySocketBase(config, account.carrier)}?${new URLSearchParams({ tenant: tenantId, ...(!carrier.signsAddresses && { relay: token }) })}`,
    speech: { language: speech.spoken.language, ...declared(speech.spoken) },
    languages: speech.others.map((other) => ({ code: other.language, ...declared(other) })),
    parameters: { relay: token, machine: String(machine) },
    action: carrierAddress(config, account, '/relay-ended'),
  });
}

/** A call the carrier conducts: nothing comes from it here; the row says how it goes. */
class CarrierConductedLine implements Line {
  constructor(
    private readonly account: CarrierAccount,
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
    await carrierOf(this.account)
      .hangUpCall(this.account, this.carrierSid)
      .catch((err: Error) => this.log.info({ callId: this.callId, err: err.message }, 'carrier hang-up refused'));
  }
}

/** Places the call through `account` (its tenant's carrier account); the carrier conducts it from there. */
export async function dialCarrier(
  ctx: Pick<Ctx, 'config' | 'db' | 'log'>,
  account: CarrierAccount,
  { callId, from, to }: DialRequest,
): Promise<Line> {
  const carrier = carrierOf(account);
  const token = relayToken(carrier.relayKey(account), callId, new Date(Date.now() + PLACED_RELAY_TOKEN_MS));
  const sid = await carrier.placeCall(account, {
    to,
    from,
    answerUrl: carrierAddress(ctx.config, account, `/answer?${new URLSearchParams({ relay: token })}`),
    statusCallback: carrierAddress(ctx.config, account, `/status?${new URLSearchParams({ call: callId })}`),
    machineReport: carrierAddress(ctx.config, account, `/machine?${new URLSearchParams({ call: callId })}`),
    ringSec: RING_SEC,
  });
  return new CarrierConductedLine(account, ctx.db, ctx.log, callId, sid);
}
