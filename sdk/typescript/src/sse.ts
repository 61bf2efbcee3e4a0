// A text/event-stream body read as the JSON of each event's `data:` lines (the SSE format: lines end
// at CRLF, LF or CR; an event ends at a blank line, and one the stream ends before is discarded; a
// field's first space is not part of its value; other fields are not used).
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  let buffered = '';
  let data: string[] = [];
  /** The events `text` completes; at the end of the stream a final CR ends its line. */
  function* read(text: string, ended: boolean): Generator<unknown> {
    buffered += text;
    // A CR last may be the first half of a CRLF whose LF is in the next chunk: kept until then.
    const held = !ended && buffered.endsWith('\r') ? 1 : 0;
    const lines = buffered.slice(0, buffered.length - held).split(/\r\n|\r|\n/);
    // The last piece is a line still arriving (at the end, one that never ended: discarded).
    buffered = lines.pop()! + buffered.slice(buffered.length - held);
    for (const line of lines) {
      if (line === '') {
        if (data.length) yield JSON.parse(data.join('\n'));
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      }
    }
  }
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) yield* read(decoder.decode(chunk, { stream: true }), false);
  yield* read(decoder.decode(), true);
}
