/** Streaming text helpers shared by the NDJSON and CSV readers. */

/** Decodes UTF-8 chunks to text with `\r\n` and lone `\r` turned into `\n` (a pair split across chunks too). */
export async function* normalisedText(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  let pendingCr = false;
  let first = true;
  for await (const chunk of chunks) {
    let text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    if (first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    if (pendingCr) {
      text = `\r${text}`;
      pendingCr = false;
    }
    if (text.endsWith("\r")) {
      pendingCr = true;
      text = text.slice(0, -1);
    }
    if (text.length > 0) yield text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
  }
  const tail = decoder.decode();
  if (pendingCr || tail) yield `${pendingCr ? "\n" : ""}${tail}`;
}

/** Lines without their terminator, numbered from 1; refuses a line longer than `maxLine` characters. */
export async function* numberedLines(
  chunks: AsyncIterable<Uint8Array | string>,
  maxLine = 8 * 1024 * 1024,
): AsyncGenerator<{ line: number; text: string }> {
  let rest = "";
  let line = 0;
  for await (const text of normalisedText(chunks)) {
    let buffer = rest + text;
    let at = buffer.indexOf("\n");
    let start = 0;
    while (at !== -1) {
      yield { line: ++line, text: buffer.slice(start, at) };
      start = at + 1;
      at = buffer.indexOf("\n", start);
    }
    buffer = buffer.slice(start);
    if (buffer.length > maxLine) throw new Error(`line ${line + 1} is longer than ${maxLine} characters`);
    rest = buffer;
  }
  if (rest.length > 0) yield { line: ++line, text: rest };
}
