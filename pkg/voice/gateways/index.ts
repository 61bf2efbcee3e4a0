// The deployment's gateway, and the interface every gateway implements (gateway.ts).
import { systemClock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Gateway } from './gateway.js';
import { createSimGateway, loadScenarios } from './sim.js';

export type { CallerScript, EndCause, Gateway, Line, LineEvent, Recorder } from './gateway.js';

/**
 * The deployment's gateway: the simulated network (never a real phone). It stands for the world
 * outside, whose phones ring in real time whatever clock the process's due times follow.
 */
export function createGateway(config: Config): Gateway {
  return createSimGateway(loadScenarios(config.SWITCHBOARD_SIM_SCENARIOS), systemClock);
}
