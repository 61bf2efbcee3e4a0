// What a caller chose at a menu: a key pressed, or the key said in words ("one", "press 2", "star").
import type { LineEvent } from '../gateways/index.js';
import type { MenuKey } from './steps.js';

const SPOKEN: Record<string, MenuKey> = {
  zero: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', star: '*', pound: '#', hash: '#',
};

/** The key chosen, or null when the answer names none. */
export function keyOf(heard: Extract<LineEvent, { type: 'keys' | 'speech' }>): MenuKey | null {
  if (heard.type === 'keys') return (/^[0-9*#]/.exec(heard.keys)?.[0] as MenuKey | undefined) ?? null;
  for (const word of heard.text.toLowerCase().split(/[^a-z0-9*#]+/)) {
    if (/^[0-9*#]$/.test(word)) return word as MenuKey;
    if (SPOKEN[word]) return SPOKEN[word]!;
  }
  return null;
}
