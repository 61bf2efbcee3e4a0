// The seeds of a fuzz run: a fixed one, so every run covers the same ground, and a new one each run
// (or FUZZ_SEED, to replay a run that failed), printed by the caller.
import { randomInt } from 'node:crypto';

export const FIXED_SEED = 20;

export function seedsOfRun(): number[] {
  const replay = process.env.FUZZ_SEED;
  return [FIXED_SEED, replay ? Number(replay) : randomInt(2 ** 31 - 1)];
}
