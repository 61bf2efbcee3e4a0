// The controllers' claim of due jobs (pkg/store/triggers/claim.ts) as the state table says: the
// events that start a run, a queued job claimed and a waiting job's follow-up due.
import { triggerClaim } from '../store/triggers/claim.js';
import { statusChange } from './state.js';

export const claimDueTriggers = triggerClaim([statusChange('claim'), statusChange('follow_up_due')]);
