import type { DB } from "../schema/database.ts";
import type { Category } from "../scores/catalogue.ts";
import { declinesOf, type Regression, regressionRows } from "./regressions.ts";
import { lowerBound, type WalkPage, type WalkStep, walkPins } from "./walk.ts";

export interface RegressionsWalkQuery {
  category: Category;
  /** Smallest drop, in tenths. */
  threshold: number;
  /** Start of the window (`isoTimestamp`): fixed when the walk begins. */
  since: string;
}

/** The universities of a regressions list, largest drop first (ties by id), with their drops in tenths. */
interface RegressionOrder {
  key: string;
  ids: Int32Array;
  drops: Int32Array;
}

const pins = walkPins<RegressionOrder>((o) => o.ids.byteLength + o.drops.byteLength);

async function currentOrder(db: DB, q: RegressionsWalkQuery, key: string): Promise<RegressionOrder> {
  const declines = await declinesOf(db, q.category);
  const ids: number[] = [];
  const drops: number[] = [];
  const sinceMs = Date.parse(q.since);
  for (let i = 0; i < declines.drops.length && (declines.drops[i] as number) >= q.threshold; i++) {
    if ((declines.completed[i] as number) < sinceMs) continue;
    ids.push(declines.ids[i] as number);
    drops.push(declines.drops[i] as number);
  }
  return { key, ids: Int32Array.from(ids), drops: Int32Array.from(drops) };
}

/**
 * A page of regressions walked by cursor: the declines (and their drops) of the list when the walk began, its
 * window fixed then; `after` of a step is the last row's `[drop in tenths, university id]`.
 */
export async function walkRegressions(
  db: DB,
  q: RegressionsWalkQuery,
  from: WalkStep | null,
  limit: number,
): Promise<WalkPage<Regression>> {
  const key = `${q.category}\u0000${q.threshold}\u0000${q.since}`;
  const resumed = await pins.resume(
    db,
    from,
    key,
    () => currentOrder(db, q, key),
    (o, after) => {
      const [drop, id] = after as [number, number];
      return lowerBound(o.ids.length, (i) => {
        const d = o.drops[i] as number;
        return d > drop || (d === drop && (o.ids[i] as number) <= id);
      });
    },
  );
  const order = resumed.order;
  const offset = Math.min(resumed.offset, order.ids.length);
  const stop = Math.min(order.ids.length, offset + limit);
  const data = await regressionRows(
    db,
    q.category,
    await declinesOf(db, q.category),
    Array.from(order.ids.subarray(offset, stop)),
    Array.from(order.drops.subarray(offset, stop)),
  );
  const next =
    stop < order.ids.length
      ? {
          snapshot: pins.pin(db, order),
          offset: stop,
          after: [order.drops[stop - 1] as number, order.ids[stop - 1] as number],
        }
      : null;
  return { data, total: order.ids.length, next };
}
