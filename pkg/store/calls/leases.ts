// What holding a call's lease means: the controller (or relay socket) conducting it, announced on CHANNELS.calls.
import type { Leased } from '../../db/leases.js';
import { CHANNELS } from '../../db/notify.js';

/** Any call may be leased: a live one to conduct, an ended one to make final. */
export const CALL_LEASES: Leased = { table: 'calls', held: {}, channel: CHANNELS.calls, reconciler: 'calls' };
