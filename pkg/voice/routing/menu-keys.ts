// What a caller chose at a menu: a key pressed, or the key said in words ("one", "press 2", "star").
import type { Ctx } from '../../context.js';
import { appendTranscript } from '../../store/calls/transcript.js';
import type { LineEvent } from '../gateways/index.js';
import type { MenuKey, RoutingStep } from './steps.js';

type Menu = Extract<RoutingStep, { type: 'menu' }>;
type Answer = Extract<LineEvent, { type: 'keys' | 'speech' }>;

const SPOKEN: Record<string, MenuKey> = {
  zero: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  star: '*',
  pound: '#',
  hash: '#',
};

/** The key chosen, or null when the answer names none. */
export function keyOf(heard: Answer): MenuKey | null {
  if (heard.type === 'keys') return (/^[0-9*#]/.exec(heard.keys)?.[0] as MenuKey | undefined) ?? null;
  for (const word of heard.text.toLowerCase().split(/[^a-z0-9*#]+/)) {
    if (/^[0-9*#]$/.test(word)) return word as MenuKey;
    if (SPOKEN[word]) return SPOKEN[word]!;
  }
  return null;
}

/** What the menu says on its `attempt`th try (from 0): the prompt, then the prompt after an apology. */
export const menuPrompt = (menu: Menu, attempt: number): string =>
  attempt === 0 ? menu.prompt : `Sorry, I did not get that. ${menu.prompt}`;

/** Whether the menu says its prompt again after `attempt` brought no choice; else its fallback follows. */
export const menuTriesAgain = (menu: Menu, attempt: number): boolean => attempt < menu.retries;

/** The caller's answer, written to the transcript; the option it chooses, or null when it names none of them. */
export async function menuChoice(ctx: Ctx, callId: string, menu: Menu, heard: Answer): Promise<RoutingStep | null> {
  await appendTranscript(ctx, callId, { speaker: 'caller', text: heard.type === 'keys' ? `(pressed ${heard.keys})` : heard.text });
  const key = keyOf(heard);
  return (key === null ? undefined : menu.options[key]) ?? null;
}
