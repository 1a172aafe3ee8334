import { expect, test } from "bun:test";
import { isoTimestamp } from "../../lib/time/format.ts";
import { isoSeconds, writeIsoSeconds } from "../../src/http/spliced-json/iso-seconds.ts";

test("a timestamp as unirank writes it, 1970 to 2106, goes to seconds and back to the same text", () => {
  const out = Buffer.alloc(32, 0x78);
  let checked = 0;
  // Steps of 3 days and 3,607 s: every month, day and time of day comes round, leap days included.
  for (let seconds = 0; seconds <= 0xffff_ffff; seconds += 3 * 86_400 + 3_607) {
    const text = isoTimestamp(new Date(seconds * 1000));
    expect(isoSeconds(text)).toBe(seconds);
    const end = writeIsoSeconds(seconds, out, 2);
    expect(out.toString("latin1", 2, end)).toBe(text);
    checked++;
  }
  expect(checked).toBeGreaterThan(16_000);
  expect(out.toString("latin1", 0, 2)).toBe("xx");
  expect(isoSeconds("2106-02-07T06:28:15+00:00")).toBe(0xffff_ffff);
  expect(isoSeconds("2024-02-29T23:59:59+00:00")).toBe(Date.UTC(2024, 1, 29, 23, 59, 59) / 1000);
});

test("any other text is not taken: it stays text, and the core answers", () => {
  for (const text of [
    "2026-02-29T00:00:00+00:00",
    "1900-02-29T00:00:00+00:00",
    "2026-13-01T00:00:00+00:00",
    "2026-04-31T00:00:00+00:00",
    "2026-04-30T24:00:00+00:00",
    "2026-04-30T23:60:00+00:00",
    "1969-12-31T23:59:59+00:00",
    "2106-02-07T06:28:16+00:00",
    "2026-01-01T00:00:00Z",
    "2026-01-01 00:00:00+00:00",
    "2026-01-01T00:00:00+01:00",
    "2026-01-01T00:00:00.5+00:00",
    "2026-0a-01T00:00:00+00:00",
    "",
  ]) {
    expect(isoSeconds(text)).toBe(-1);
  }
});
