// The deployment's gateway, and the interface every gateway implements (gateway.ts).
import { systemClock } from '../../clock.js';
import type { Ctx } from '../../context.js';
import { callById } from '../../store/calls/get.js';
import { carrierCredentials } from '../carrier-accounts.js';
import type { Gateway } from './gateway.js';
import { createSimGateway, loadScenarios } from './sim.js';
import { dialCarrier } from './carried.js';

export type { CallerScript, EndCause, Gateway, Line, LineEvent, Recorder } from './gateway.js';

/**
 * The deployment's gateway: each call through its account's carrier (carrier-accounts.ts) when
 * there is one, else through the simulated network (never a real phone), which stands for the world
 * outside: its phones ring in real time whatever clock the process's due times follow.
 */
export function createGateway(ctx: Pick<Ctx, 'config' | 'db' | 'log' | 'secrets'>): Gateway {
  const sim = createSimGateway(loadScenarios(ctx.config.SWITCHBOARD_SIM_SCENARIOS), systemClock);
  return {
    name: 'calls',
    async dial(req) {
      const call = await callById(ctx.db, req.callId);
      const account = call ? await carrierCredentials(ctx, call.tenant_id) : null;
      return account ? dialCarrier(ctx, account, req) : sim.dial(req);
    },
    // Only the simulated network rings in here: a carrier's calls ring in at its voice webhook.
    pickUp: (req) => sim.pickUp(req),
  };
}
