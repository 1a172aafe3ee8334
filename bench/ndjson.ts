/** Streams the lines of a (large) NDJSON file as parsed objects, holding one chunk at a time. */
export async function* readNdjson<T = unknown>(path: string): AsyncGenerator<T> {
  const decoder = new TextDecoder();
  let rest = "";
  for await (const chunk of Bun.file(path).stream() as unknown as AsyncIterable<Uint8Array>) {
    const text = rest + decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
      if (nl > start) yield JSON.parse(text.slice(start, nl)) as T;
      start = nl + 1;
    }
    rest = text.slice(start);
  }
  rest += decoder.decode();
  if (rest.trim()) yield JSON.parse(rest) as T;
}
