import { keysetBatches } from "../../../lib/db/keyset-batches.ts";
import { letOthersRun } from "../../../lib/steps/run-steps.ts";
import { collectGarbage, collectGarbageSoon } from "../../memory-steward.ts";

/**
 * Rows read between two collections during a build: a build reads every university and makes garbage faster than
 * the runtime collects it on its own, so its resident size grew by several times what it keeps. Every
 * `FULL_EVERY`-th collection is a full one, the others are asked for without being forced (figures and the
 * choice in docs/performance.md, "Collections during the builds").
 */
export const ROWS_PER_COLLECTION = 5_000;
export const FULL_EVERY = 4;

/** How a build collects: a full collection now, or one the runtime runs when it suits it. */
export type BuildCollector = (full: boolean) => void;

const runtimeCollector: BuildCollector = (full) => (full ? collectGarbage() : collectGarbageSoon());

/**
 * The batches of a build of spliced texts: `keysetBatches(size, read)`, paced (`pacedBatches`).
 */
export const buildBatches = <R extends { id: number | string }>(
  size: number,
  read: (after: number) => Promise<R[]>,
  collect: BuildCollector = runtimeCollector,
): AsyncGenerator<R[]> => pacedBatches(keysetBatches(size, read), collect);

/**
 * `batches` handed on with a collection (`collect`) whenever another `ROWS_PER_COLLECTION` rows have been handed
 * out and used, and the event loop let run between batches: a build of a second or more otherwise held every other
 * request that came meanwhile.
 */
export async function* pacedBatches<R>(
  batches: AsyncIterable<R[]>,
  collect: BuildCollector = runtimeCollector,
): AsyncGenerator<R[]> {
  let rows = 0;
  let collections = 0;
  for await (const batch of batches) {
    yield batch;
    rows += batch.length;
    if (rows >= ROWS_PER_COLLECTION) {
      rows = 0;
      collections++;
      collect(collections % FULL_EVERY === 0);
    }
    await letOthersRun();
  }
}
