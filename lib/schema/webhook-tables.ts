import type { Generated } from "kysely";

/** Tables of migration `003-webhooks`. Times are `isoTimestamp` text. */

export interface WebhookReceiversTable {
  id: Generated<number>;
  url: string;
  /** Shared secret keying the HMAC-SHA256 signature (kept in clear: it is needed to sign). */
  secret: string;
  /** 1 = receives new events, 0 = paused. */
  active: Generated<number>;
  created_at: string;
}

export type DeliveryStatus = "pending" | "delivered" | "failed";

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  /** The stable delivery id sent as `X-Webhook-Delivery`, the same on every retry. */
  uuid: string;
  receiver_id: number;
  event: string;
  scan_id: number | null;
  /** The exact body sent on every attempt. */
  payload: string;
  status: Generated<DeliveryStatus>;
  /** Attempts started (claims), ever. */
  attempts: Generated<number>;
  /** Failed attempts since the delivery was (re)queued: the position in the retry schedule. */
  failures: Generated<number>;
  next_attempt_at: string;
  /** Lease of the worker sending it; an expired lease may be claimed again (crashed worker). */
  locked_until: string | null;
  locked_by: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempt: number;
  started_at: string;
  duration_ms: number;
  /** HTTP status, null when no response came (timeout, refused, DNS, blocked address). */
  status_code: number | null;
  error: string | null;
  worker: string | null;
}
