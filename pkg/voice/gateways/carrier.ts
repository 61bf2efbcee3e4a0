// The real carriers Switchboard speaks to: Twilio, and Telnyx, whose TeXML and ConversationRelay are
// Twilio's TwiML and relay protocol. What differs is here, one implementation each: how a call is
// placed, ended and its recording fetched, how the carrier signs its requests, and the key relay
// parameters are signed with (carrier-api.ts). Everything after (TwiML, the relay, status callbacks) is shared.
import { publicUrl, type Config } from '../../config.js';
import { sealAddress } from './address-seal.js';
import type { Carrier } from './carrier-api.js';
import { telnyx, type TelnyxAccount } from './telnyx/carrier.js';
import { twilio, type TwilioAccount } from './twilio/carrier.js';

export type CarrierAccount = TwilioAccount | TelnyxAccount;
export type CarrierName = CarrierAccount['carrier'];
export const CARRIER_NAMES: readonly CarrierName[] = ['twilio', 'telnyx'];

const CARRIERS: { [N in CarrierName]: Carrier<Extract<CarrierAccount, { carrier: N }>> } = { twilio, telnyx };

/** The implementation of `account`'s carrier. */
export const carrierOf = <A extends CarrierAccount>(account: A): Carrier<A> => CARRIERS[account.carrier] as unknown as Carrier<A>;

/** Where a carrier's requests arrive, under the Voice API. */
export const carrierPath = (carrier: CarrierName): string => `/v1/carrier/${carrier}`;

/** The public address of a carrier endpoint. */
export const carrierUrl = (config: Config, carrier: CarrierName, path: string): string =>
  `${publicUrl(config)}${carrierPath(carrier)}${path}`;

/** The address of `account`'s carrier endpoint `path` (with its query) to hand the carrier: sealed when its signature leaves addresses out. */
export function carrierAddress(config: Config, account: CarrierAccount, path: string): string {
  const carrier = carrierOf(account);
  const url = carrierUrl(config, account.carrier, path);
  return carrier.signsAddresses ? url : sealAddress(carrier.relayKey(account), url);
}
