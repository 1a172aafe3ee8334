import { expect, test } from "bun:test";
import { byteText, portableIndexOf } from "../../lib/text/byte-search.ts";

test("the portable byte search finds what Buffer.indexOf finds, from every start", () => {
  const encoder = new TextEncoder();
  const haystack = encoder.encode("aaab\u0000universität zürich\u0000aab\u0000東京大学\u0000abab");
  for (const key of ["a", "aab", "ab", "abab", "b\u0000", "zürich", "東京", "学\u0000a", "x", "ababa"]) {
    const needle = encoder.encode(key);
    for (let from = 0; from <= haystack.length; from++) {
      const expected = Buffer.from(haystack).indexOf(needle, from);
      expect(portableIndexOf(haystack, needle, from), `${key} from ${from}`).toBe(expected);
      expect(byteText(haystack).indexOf(needle, from)).toBe(expected);
    }
  }
});
