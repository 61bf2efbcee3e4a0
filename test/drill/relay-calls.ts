// Relay calls for the fault drills: callees on the Twilio stand-in who talk to the agent over
// ConversationRelay a line at a time, pausing between lines so that faults land mid-call, each
// keeping what it said and which lines the agent replied to, for the drill to check against what
// Postgres stored of the call.
import type { RelayEnd } from '../support/carrier/relay-caller.js';
import type { CallerScript, TwilioStandIn } from '../support/carrier/twilio.js';
import { sleep } from './load.js';

export interface RelayTalk {
  /** The lines said, in order. */
  said: string[];
  /** The lines the agent replied to: its reply to each reached the caller whole (`last: true`). */
  acknowledged: string[];
  /** How the socket closed; none when it never opened. */
  end?: RelayEnd;
}

/** A callee who says `lines`, each `pauseMs` after the agent's reply to the last, then hangs up; it stops when the socket closes. */
export function talker(lines: string[], pauseMs: number, talk: RelayTalk): CallerScript {
  return async (caller) => {
    void caller.ended.then((end) => (talk.end = end));
    for (const line of lines) {
      if (talk.end) return;
      caller.say(line);
      talk.said.push(line);
      const replied = await caller.reply().then(
        () => true,
        () => false,
      );
      if (!replied) return;
      talk.acknowledged.push(line);
      await sleep(pauseMs);
    }
    await caller.hangUp();
  };
}

/** How many times the carrier placed each of Switchboard's calls, by the call id its status callback names. */
export function placementsByCall(twilio: TwilioStandIn): Map<string, number> {
  const placements = new Map<string, number>();
  for (const call of twilio.calls) {
    const id = new URL(String(call.params.StatusCallback)).searchParams.get('call')!;
    placements.set(id, (placements.get(id) ?? 0) + 1);
  }
  return placements;
}

/** Lines of `said` not in `stored`, each stored line matching one said line once. */
export function missingLines(said: string[], stored: string[]): number {
  const left = [...stored];
  return said.filter((line) => {
    const at = left.indexOf(line);
    if (at >= 0) left.splice(at, 1);
    return at < 0;
  }).length;
}
