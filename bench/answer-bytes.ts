/**
 * What making an answer's bytes costs with a small heap and with a heap that holds as much as a server's data: the
 * body's UTF-8 as a new array, the `Response` around it or around the text, the reused buffer of `scratchUtf8`, and
 * the ETag's hash of the text or of its bytes. The body is a JSON page of 60 synthetic universities with names in
 * several scripts (about 11 KB, a 16-bit string, as a rankings page is).
 *
 *   bun bench/answer-bytes.ts [--answers N] [--strings N]
 */
import { generateDataset } from "../lib/seed/index.ts";
import { scratchUtf8 } from "../src/http/scratch-utf8.ts";
import { benchOptions } from "./args.ts";

const { value } = benchOptions();
const answers = Number(value("answers") ?? 30_000);
const strings = Number(value("strings") ?? 1_000_000);

const rows: unknown[] = [];
for (const record of generateDataset({ universities: 60, scansPerUniversity: 1 })) {
  if (record.type === "university")
    rows.push({ rank: rows.length + 1, ...record, tail: "東京大学 · Genève" });
}
const body = JSON.stringify({ data: rows, meta: { page: 1, limit: 60 } });
const encoder = new TextEncoder();
const bytes = encoder.encode(body);
const headers = { "Content-Type": "application/json; charset=utf-8", ETag: '"0123456789abcdef"' };

function time(name: string, work: () => unknown) {
  for (let i = 0; i < answers / 10; i++) work();
  const started = performance.now();
  for (let i = 0; i < answers; i++) work();
  console.log(`  ${name.padEnd(44)} ${(((performance.now() - started) * 1000) / answers).toFixed(2)} µs`);
}
function round() {
  time("TextEncoder.encode", () => encoder.encode(body));
  time("new Response(encode(text), { headers })", () => new Response(encoder.encode(body), { headers }));
  time("new Response(text, { headers })", () => new Response(body, { headers }));
  time("scratchUtf8(text)", () => scratchUtf8(body));
  time("Bun.hash(text)", () => Bun.hash(body));
  time("Bun.hash(bytes)", () => Bun.hash(bytes));
}

console.log(`body: ${body.length} characters, ${bytes.byteLength} bytes; ${answers} answers a figure`);
console.log("small heap:");
round();
const held: unknown[] = [];
for (let i = 0; i < strings; i++) held.push(`row ${i} ${"x".repeat(i % 50)}`);
for (let i = 0; i < 200; i++) held.push(new Uint8Array(100_000));
Bun.gc(true);
console.log(`heap holding ${strings} strings and 20 MB of typed arrays:`);
round();
