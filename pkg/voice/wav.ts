// WAV (RIFF, PCM) files: what voicemail recordings are stored and served as.
const HEADER_BYTES = 44;

/** 16-bit mono PCM `samples` at `rate` samples a second, as a WAV file. */
export function encodeWav(samples: Int16Array, rate: number): Buffer {
  const dataBytes = samples.length * 2;
  const wav = Buffer.alloc(HEADER_BYTES + dataBytes);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28); // bytes a second
  wav.writeUInt16LE(2, 32); // bytes a sample
  wav.writeUInt16LE(16, 34); // bits a sample
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(dataBytes, 40);
  samples.forEach((sample, i) => {
    wav.writeInt16LE(sample, HEADER_BYTES + i * 2);
  });
  return wav;
}

/** The length of a WAV written by encodeWav, from its header, in seconds. */
export const wavSeconds = (wav: Buffer): number => wav.readUInt32LE(40) / wav.readUInt32LE(28);
