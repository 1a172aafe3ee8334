import { expect, test } from "bun:test";
import { orderedPage, placedPage, type SearchOrder } from "../../lib/queries/search-orders.ts";

/** A random order of n rows and its inverse. */
function shuffled(n: number, seed: number): SearchOrder {
  let s = seed;
  const random = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x80000000;
  };
  const rows = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rows[i], rows[j]] = [rows[j] as number, rows[i] as number];
  }
  const rank = new Int32Array(n);
  rows.forEach((row, place) => {
    rank[row] = place;
  });
  return { rank, rows };
}

test("orderedPage: a page of the matches in the order's places, by sorting few matches or marking many", () => {
  const n = 2000;
  const order = shuffled(n, 7);
  // From 1 match (sorted) to every row (marked), pages at the start, the middle, the end and past it.
  for (const every of [1, 2, 5, 31, 32, 33, 100, 2000]) {
    const matches = Array.from({ length: Math.ceil(n / every) }, (_, i) => i * every);
    const want = [...matches].sort((a, b) => (order.rank[a] as number) - (order.rank[b] as number));
    for (const [offset, limit] of [
      [0, 20],
      [0, 1],
      [7, 13],
      [Math.max(0, want.length - 5), 20],
      [want.length, 20],
      [want.length + 10, 20],
      [Number.POSITIVE_INFINITY, 20],
    ] as const) {
      const got = orderedPage(matches, order, offset, limit);
      expect({ every, offset, limit, ...got }).toEqual({
        every,
        offset,
        limit,
        total: matches.length,
        rows: want.slice(Math.min(offset, want.length), Math.min(offset + limit, want.length)),
      });
    }
  }
});

test("placedPage: places given more than once count once, sorted or marked", () => {
  const n = 3000;
  const order = shuffled(n, 11);
  let s = 3;
  const random = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x80000000;
  };
  // Few places (sorted) and many (marked), each given one to three times, in no order; the first and last
  // places and those at the edges of the map's 32-bit words among them.
  for (const distinct of [1, 40, 300, 1200, 3000]) {
    // The ends and the edges of 32-bit words first, then places of a shuffled order.
    const chosen = new Set<number>([0, n - 1, 31, 32, 63].slice(0, distinct));
    for (const place of shuffled(n, distinct).rows) if (chosen.size < distinct) chosen.add(place);
    const given = [...chosen].flatMap((place) => Array.from({ length: 1 + (place % 3) }, () => place));
    given.sort(() => random() - 0.5);
    const want = [...chosen].sort((a, b) => a - b).map((place) => order.rows[place] as number);
    for (const [offset, end] of [
      [0, 20],
      [5, 6],
      [distinct - 3, distinct],
      [distinct, distinct + 20],
    ] as const) {
      const got = placedPage(order, Int32Array.from(given), offset, end);
      expect({ distinct, offset, got }).toEqual({
        distinct,
        offset,
        got: want.slice(Math.max(0, offset), Math.min(end, want.length)),
      });
    }
  }
});

test("placedPage: a short page's least places kept as they come, in any order of the places, or placed otherwise", () => {
  const n = 5000;
  const order = shuffled(n, 5);
  const chosen = shuffled(n, 9).rows.slice(0, 1500);
  // Each place twice, the second time right after or far from the first.
  const given = [...chosen, ...chosen.slice(0, 700), ...chosen.slice(0, 800).reverse()];
  const want = [...chosen].sort((a, b) => a - b).map((place) => order.rows[place] as number);
  const ascending = Int32Array.from(given).sort();
  const arrangements = {
    shuffled: Int32Array.from(given),
    ascending,
    descending: ascending.slice().reverse(),
  };
  for (const [arranged, places] of Object.entries(arrangements)) {
    for (const [offset, end] of [
      [0, 1],
      [0, 20],
      [19, 20],
      [80, 100],
      [0, 101],
      [90, 400],
      [1490, 1520],
    ] as const) {
      const got = placedPage(order, places.slice(), offset, end);
      expect({ arranged, offset, end, got }).toEqual({ arranged, offset, end, got: want.slice(offset, end) });
    }
  }
});
