// The deployment's gateway, and the interface every gateway implements (gateway.ts).
import { systemClock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Gateway } from './gateway.js';
import { createSimGateway, loadScenarios } from './sim.js';
import { createTwilioGateway } from './twilio/gateway.js';
import type { Knex } from 'knex';
import type { Logger } from '../../log.js';

export type { CallerScript, EndCause, Gateway, Line, LineEvent, Recorder } from './gateway.js';

/**
 * The deployment's gateway: a real carrier when one is configured, else the simulated network
 * (never a real phone), which stands for the world outside: its phones ring in real time whatever
 * clock the process's due times follow.
 */
export function createGateway(config: Config, db: Knex, log: Logger): Gateway {
  if (config.SWITCHBOARD_CARRIER === 'twilio') return createTwilioGateway(config, db, log);
  return createSimGateway(loadScenarios(config.SWITCHBOARD_SIM_SCENARIOS), systemClock);
}
