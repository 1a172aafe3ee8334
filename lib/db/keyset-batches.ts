/**
 * Batches of `read(after)` (rows with ids above `after`, ascending, at most `size`), from the start until a batch
 * comes short: a walk of a table by its key that costs the same on its last batch as on its first (no OFFSET).
 * The next batch is read when the caller asks for it, after whatever it wrote for the one before.
 */
export async function* keysetBatches<R extends { id: number | string }>(
  size: number,
  read: (after: number) => Promise<R[]>,
): AsyncGenerator<R[]> {
  for (let after = 0; ; ) {
    const batch = await read(after);
    if (batch.length === 0) return;
    yield batch;
    if (batch.length < size) return;
    after = Number(batch[batch.length - 1]!.id);
  }
}
