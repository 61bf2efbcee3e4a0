// A text/event-stream body read as the JSON of each event's `data:` lines (the SSE format: events
// end at a blank line; a field's first space is not part of its value; other fields are not used).
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  let buffered = '';
  let data: string[] = [];
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    const lines = buffered.split(/\r\n|\r|\n/);
    // The last piece may be a line still arriving.
    buffered = lines.pop()!;
    for (const line of lines) {
      if (line === '') {
        if (data.length) yield JSON.parse(data.join('\n'));
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      }
    }
  }
}
