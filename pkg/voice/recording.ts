// Recordings of the simulated network: a WAV of the message's length (a soft tone), since no real
// audio passes through it.
const RATE = 8000;

/** Words a second of speech, to give a voicemail its length. */
const WORDS_PER_SEC = 2.5;

/** How long `text` takes to say, in whole seconds (at least one). */
export const spokenSeconds = (text: string): number => Math.max(1, Math.ceil(text.trim().split(/\s+/).length / WORDS_PER_SEC));

/** 8 kHz, 16-bit mono PCM WAV of `seconds` seconds. */
export function simulatedRecording(seconds: number): Buffer {
  const samples = Math.max(1, Math.round(seconds * RATE));
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(RATE, 24);
  wav.writeUInt32LE(RATE * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) wav.writeInt16LE(Math.round(2000 * Math.sin((2 * Math.PI * 440 * i) / RATE)), 44 + i * 2);
  return wav;
}
