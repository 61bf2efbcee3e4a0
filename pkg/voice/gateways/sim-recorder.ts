// What the simulated network records of a far end's speech. It carries text, not sound, and has no
// text-to-speech: each word said becomes a short tone whose pitch follows the word, each line takes
// as long as saying it would (spokenSeconds, whole seconds), so a recording is real audio of the
// right length, not speech.
import { spokenSeconds } from '../recording.js';
import { encodeWav } from '../wav.js';
import type { Recorder } from './gateway.js';

const RATE = 8000;
/** Each word's tone, then a short pause before the next. */
const WORD_SAMPLES = Math.round(RATE * 0.3);
const PAUSE_SAMPLES = Math.round(RATE * 0.1);

/** A word's tone between 300 and 1,100 Hz, the same for the same word. */
const pitchOf = (word: string): number => 300 + ([...word].reduce((sum, c) => sum + c.charCodeAt(0), 0) % 800);

/** A line said aloud: its words' tones, padded with silence to its whole seconds. */
function toneOf(text: string): Int16Array {
  const audio = new Int16Array(spokenSeconds(text) * RATE);
  let at = 0;
  for (const word of text.trim().split(/\s+/)) {
    const hz = pitchOf(word);
    for (let i = 0; i < WORD_SAMPLES && at + i < audio.length; i++)
      audio[at + i] = Math.round(4000 * Math.sin((2 * Math.PI * hz * i) / RATE));
    at += WORD_SAMPLES + PAUSE_SAMPLES;
  }
  return audio;
}

export class SimRecorder implements Recorder {
  private readonly parts: Int16Array[] = [];
  private readonly maxSamples: number;
  private samples = 0;
  private stopped = false;

  constructor(maxSec: number) {
    this.maxSamples = maxSec * RATE;
  }

  /** The far end said `text`: its audio, as much as still fits. */
  heard(text: string): void {
    if (this.stopped) return;
    const audio = toneOf(text).subarray(0, this.maxSamples - this.samples);
    this.parts.push(audio);
    this.samples += audio.length;
  }

  get full(): boolean {
    return this.samples >= this.maxSamples;
  }

  async stop(): Promise<Buffer> {
    this.stopped = true;
    const all = new Int16Array(this.samples);
    let at = 0;
    for (const part of this.parts) {
      all.set(part, at);
      at += part.length;
    }
    return encodeWav(all, RATE);
  }
}
