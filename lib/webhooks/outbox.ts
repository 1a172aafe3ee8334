import type { DB } from "../schema/database.ts";
import { type Clock, isoTimestamp, systemClock } from "../time/format.ts";
import type { ScanCompletedEvent } from "./receiver.ts";

/** What a `scan.completed` event says about the scan. */
export interface CompletedScan {
  scan_id: number;
  university_id: number;
  domain: string;
  overall_score: number | null;
  /** ISO 8601 with offset. */
  completed_at: string;
}

/** The exact body of a `scan.completed` delivery (section 6 of the description), fixed when recorded. */
export function scanCompletedPayload(scan: CompletedScan, timestamp: string): string {
  const body: ScanCompletedEvent = {
    event: "scan.completed",
    timestamp,
    data: {
      scan_id: scan.scan_id,
      university_id: scan.university_id,
      domain: scan.domain,
      overall_score: scan.overall_score,
      completed_at: scan.completed_at,
    },
  };
  return JSON.stringify(body);
}

const CHUNK = 500;

/**
 * The outbox: records one pending delivery per active receiver for each newly completed scan. Call it in the
 * transaction that writes the scans, so a completed scan never exists without its deliveries (a rollback or a
 * crash drops both). Returns the number of deliveries recorded.
 */
export async function recordScanCompleted(
  trx: DB,
  scans: readonly CompletedScan[],
  options: { clock?: Clock; receiverIds?: readonly number[] } = {},
): Promise<number> {
  if (scans.length === 0) return 0;
  const receivers =
    options.receiverIds ??
    (await trx.selectFrom("webhook_receivers").select("id").where("active", "=", 1).execute()).map((r) =>
      Number(r.id),
    );
  if (receivers.length === 0) return 0;
  const now = isoTimestamp((options.clock ?? systemClock)());
  const rows = [];
  for (const scan of scans) {
    const payload = scanCompletedPayload(scan, now);
    for (const receiver of receivers) {
      rows.push({
        uuid: crypto.randomUUID(),
        receiver_id: receiver,
        event: "scan.completed",
        scan_id: scan.scan_id,
        payload,
        next_attempt_at: now,
        created_at: now,
      });
    }
  }
  for (let i = 0; i < rows.length; i += CHUNK) {
    await trx
      .insertInto("webhook_deliveries")
      .values(rows.slice(i, i + CHUNK))
      .execute();
  }
  return rows.length;
}
