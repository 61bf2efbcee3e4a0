// A call Switchboard ended on its own (the sweep) may still be up at the carrier, which bills it:
// the carrier is asked to hang it up with the account's credentials. A carrier that refuses or is
// down is logged and counted, never retried: the record is ended already, and the carrier's own
// report of the end (its status callback) changes nothing more.
import type { Ctx } from '../context.js';
import type { CallRow } from '../store/calls/row.js';
import { carrierCredentials } from './carrier-accounts.js';
import { carrierOf } from './gateways/carrier.js';

export async function hangUpAtCarrier(ctx: Pick<Ctx, 'db' | 'config' | 'secrets' | 'log' | 'metrics'>, rows: CallRow[]): Promise<void> {
  await Promise.all(
    rows
      .filter((row) => row.carrier_sid)
      .map(async (row) => {
        // Unknown until the account is read (which may fail too).
        let carrier = 'unknown';
        try {
          const account = await carrierCredentials(ctx, row.tenant_id);
          if (!account) return;
          carrier = account.carrier;
          await carrierOf(account).hangUpCall(account, row.carrier_sid!);
          ctx.metrics.carrierHangups.inc({ carrier, result: 'ok' });
        } catch (err) {
          ctx.metrics.carrierHangups.inc({ carrier, result: 'failed' });
          ctx.log.warn({ callId: row.id, err: (err as Error).message }, 'the carrier could not be asked to hang up an ended call');
        }
      }),
  );
}
