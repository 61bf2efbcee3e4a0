// Status conditions derived from a phase, as a Job has them: each True while the phase says so.
import type { Condition } from './trigger-cr.js';

export type PhaseConditions = Record<string, (phase: string) => boolean>;

const reasonOf = (phase: string): string => phase.replace(/(^|_)(\w)/g, (_m, _u, c: string) => c.toUpperCase());

/**
 * The conditions of `phase`. A condition keeps its lastTransitionTime unless its status changes;
 * conditions not derived from the phase (an operator action's refusal) are kept as they are.
 */
export function phaseConditions(
  table: PhaseConditions,
  phase: string,
  message: string,
  previous: Condition[] = [],
  now = new Date(),
): Condition[] {
  const derived: Condition[] = Object.entries(table).map(([type, holds]) => {
    const status = holds(phase) ? 'True' : 'False';
    const before = previous.find((c) => c.type === type);
    return {
      type,
      status,
      reason: reasonOf(phase),
      message: status === 'True' ? message.slice(0, 1000) : '',
      lastTransitionTime: before && before.status === status ? before.lastTransitionTime : now.toISOString(),
    };
  });
  return [...derived, ...previous.filter((c) => !(c.type in table))];
}
