// Reading a WAV file as a player would: the RIFF chunks, the PCM format, and the length they give.
import { expect } from 'chai';

export interface Wav {
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  /** The audio's length from the header: data bytes over bytes a second. */
  seconds: number;
  data: Buffer;
}

/** The WAV in `file`, checked to be a well-formed RIFF/WAVE with a consistent PCM `fmt ` chunk. */
export function readWav(file: Buffer): Wav {
  expect(file.toString('ascii', 0, 4), 'RIFF').to.equal('RIFF');
  expect(file.readUInt32LE(4), 'RIFF size').to.equal(file.length - 8);
  expect(file.toString('ascii', 8, 12), 'WAVE').to.equal('WAVE');
  const chunks = new Map<string, Buffer>();
  for (let at = 12; at < file.length; ) {
    const size = file.readUInt32LE(at + 4);
    chunks.set(file.toString('ascii', at, at + 4), file.subarray(at + 8, at + 8 + size));
    at += 8 + size + (size % 2);
  }
  const fmt = chunks.get('fmt ');
  const data = chunks.get('data');
  expect(fmt, 'fmt chunk').to.not.equal(undefined);
  expect(data, 'data chunk').to.not.equal(undefined);
  const wav = {
    format: fmt!.readUInt16LE(0),
    channels: fmt!.readUInt16LE(2),
    sampleRate: fmt!.readUInt32LE(4),
    bitsPerSample: fmt!.readUInt16LE(14),
  };
  const blockAlign = fmt!.readUInt16LE(12);
  const byteRate = fmt!.readUInt32LE(8);
  expect(blockAlign, 'block align').to.equal((wav.channels * wav.bitsPerSample) / 8);
  expect(byteRate, 'byte rate').to.equal(wav.sampleRate * blockAlign);
  expect(data!.length % blockAlign, 'whole samples').to.equal(0);
  return { ...wav, seconds: data!.length / byteRate, data: data! };
}
