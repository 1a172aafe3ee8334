import { expect, test } from "bun:test";
import { canonicalTimestamp, isoTimestamp, parseTimestamp, sqlTimestamp } from "../../lib/time/format.ts";

/** What the general parser makes of `text` in `form`, or null. */
const slow = (text: string, form: "iso" | "sql") => {
  const d = parseTimestamp(text);
  return d ? (form === "iso" ? isoTimestamp(d) : sqlTimestamp(d)) : null;
};

test("canonical timestamps pass through unchanged; everything else is left to the general parser", () => {
  expect(canonicalTimestamp("2024-02-29T00:00:00+00:00", "iso")).toBe("2024-02-29T00:00:00+00:00");
  expect(canonicalTimestamp("2000-02-29 23:59:59", "sql")).toBe("2000-02-29 23:59:59");
  for (const bad of [
    "2023-02-29T00:00:00+00:00", // not a leap year
    "1900-02-29T00:00:00+00:00",
    "2024-04-31T00:00:00+00:00",
    "2024-13-01T00:00:00+00:00",
    "2024-00-10T00:00:00+00:00",
    "2024-01-00T00:00:00+00:00",
    "2024-01-01T24:00:00+00:00",
    "2024-01-01T00:60:00+00:00",
    "2024-01-01T00:00:60+00:00",
    "2024-01-01 00:00:00", // the other form
    "2024-01-01T00:00:00Z",
    "2024-01-01T02:00:00+02:00",
    " 2024-01-01T00:00:00+00:00",
  ]) {
    expect(canonicalTimestamp(bad, "iso")).toBeNull();
  }
  expect(canonicalTimestamp("2024-01-01T00:00:00+00:00", "sql")).toBeNull();
});

test("the fast path never disagrees with the general parser", () => {
  let checked = 0;
  for (const y of [1900, 2000, 2023, 2024]) {
    for (let mo = 0; mo <= 13; mo++) {
      for (const d of [0, 1, 28, 29, 30, 31, 32]) {
        for (const time of ["00:00:00", "23:59:59", "24:00:00", "12:60:00"]) {
          const date = `${y}-${String(mo).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
          for (const [text, form] of [
            [`${date}T${time}+00:00`, "iso"],
            [`${date} ${time}`, "sql"],
          ] as const) {
            const fast = canonicalTimestamp(text, form);
            if (fast !== null) expect(fast).toBe(slow(text, form) as string);
            else expect(slow(text, form)).not.toBe(text);
            checked++;
          }
        }
      }
    }
  }
  expect(checked).toBe(4 * 14 * 7 * 4 * 2);
});
