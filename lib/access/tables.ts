import type { Generated, Kysely } from "kysely";
import type { DB } from "../schema/database.ts";

/** Tables of migration `002-access`; times are milliseconds since the epoch (PostgreSQL returns them as strings). */
export interface ApiKeysTable {
  id: Generated<number>;
  name: string;
  /** `urk_` and the first characters of the key: enough to recognise it in a list, useless to an attacker. */
  prefix: string;
  /** SHA-256 (hex) of the whole key; the key itself is never stored. */
  key_hash: string;
  rate_limit: number;
  /** 1 when every request made with the key must be HMAC-signed. */
  require_signature: number;
  /** Kept so the server can verify signatures (HMAC needs the secret itself); null for unsigned keys. */
  signing_secret: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface RateLimitClientsTable {
  client: string;
  touched_at: number | string;
}

export interface RateLimitHitsTable {
  client: string;
  at: number | string;
}

export interface SignatureReplaysTable {
  key_id: number;
  signature: string;
  expires_at: number | string;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: number | string;
  request_id: string;
  /** The key's id (never the key); null for anonymous or unknown-key requests. */
  key_id: number | null;
  client_ip: string;
  method: string;
  /** Path and query, with `api_key` redacted. */
  path: string;
  status: number;
  duration_ms: number;
}

export interface AccessTables {
  api_keys: ApiKeysTable;
  rate_limit_clients: RateLimitClientsTable;
  rate_limit_hits: RateLimitHitsTable;
  signature_replays: SignatureReplaysTable;
  audit_log: AuditLogTable;
}

export type AccessDB = Kysely<AccessTables>;

/** The same connection, typed with the access tables. */
export function accessDb(db: DB | AccessDB): AccessDB {
  return db as unknown as AccessDB;
}
