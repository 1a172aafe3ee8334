import { prepared } from "../db/prepared.ts";
import { UnirankError } from "../errors.ts";
import type { DB } from "../schema/database.ts";
import { type Clock, isoTimestamp, systemClock } from "../time/format.ts";
import {
  apiKeyPrefix,
  generateApiKey,
  generateSigningSecret,
  hashApiKey,
  isWellFormedApiKey,
  safeEqual,
} from "./api-key-format.ts";
import { type AccessDB, accessDb } from "./tables.ts";

/** Requests per rolling hour a new key gets unless told otherwise. */
export const DEFAULT_KEY_RATE_LIMIT = 5000;

/** A key as listed: never the key itself, never the signing secret. */
export interface ApiKeyInfo {
  id: number;
  name: string;
  /** `urk_` and the first 6 characters, to recognise the key. */
  prefix: string;
  /** Requests per rolling hour; 0 means unlimited. */
  rate_limit: number;
  require_signature: boolean;
  created_at: string;
  revoked_at: string | null;
}

/** An authenticated key: what the guard needs (the secret only when signing is on). */
export interface AuthenticatedKey extends ApiKeyInfo {
  signing_secret: string | null;
}

/** Returned once by `createKey`: the only time the key (and signing secret) can be seen. */
export interface CreatedKey extends ApiKeyInfo {
  key: string;
  signing_secret: string | null;
}

export interface CreateKeyInput {
  name: string;
  /** Default 5000; 0 = unlimited. */
  rateLimit?: number;
  requireSignature?: boolean;
}

const MAX_RATE_LIMIT = 2 ** 31 - 1;

function info(row: {
  id: number;
  name: string;
  prefix: string;
  rate_limit: number;
  require_signature: number;
  created_at: string;
  revoked_at: string | null;
}): ApiKeyInfo {
  return {
    id: Number(row.id),
    name: row.name,
    prefix: row.prefix,
    rate_limit: Number(row.rate_limit),
    require_signature: Number(row.require_signature) === 1,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}

/** Creates a key; the result carries the key (and signing secret) that are never retrievable again. */
export async function createKey(
  db: DB | AccessDB,
  input: CreateKeyInput,
  options: { clock?: Clock } = {},
): Promise<CreatedKey> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 200) {
    throw new UnirankError("INVALID_PARAMETER", "name must be 1 to 200 characters", [
      { param: "name", message: "name must be 1 to 200 characters" },
    ]);
  }
  const rateLimit = input.rateLimit ?? DEFAULT_KEY_RATE_LIMIT;
  if (!Number.isInteger(rateLimit) || rateLimit < 0 || rateLimit > MAX_RATE_LIMIT) {
    throw new UnirankError("INVALID_PARAMETER", `rate limit must be an integer from 0 to ${MAX_RATE_LIMIT}`, [
      { param: "rate_limit", message: `rate limit must be an integer from 0 to ${MAX_RATE_LIMIT}` },
    ]);
  }
  const key = generateApiKey();
  const signingSecret = input.requireSignature ? generateSigningSecret() : null;
  const row = {
    name,
    prefix: apiKeyPrefix(key),
    key_hash: hashApiKey(key),
    rate_limit: rateLimit,
    require_signature: input.requireSignature ? 1 : 0,
    signing_secret: signingSecret,
    created_at: isoTimestamp((options.clock ?? systemClock)()),
    revoked_at: null,
  };
  const inserted = await accessDb(db)
    .insertInto("api_keys")
    .values(row)
    .returning("id")
    .executeTakeFirstOrThrow();
  return { ...info({ ...row, id: Number(inserted.id) }), key, signing_secret: signingSecret };
}

/** Every key, oldest first, revoked ones included (with `revoked_at`). */
export async function listKeys(db: DB | AccessDB): Promise<ApiKeyInfo[]> {
  const rows = await accessDb(db)
    .selectFrom("api_keys")
    .select(["id", "name", "prefix", "rate_limit", "require_signature", "created_at", "revoked_at"])
    .orderBy("id")
    .execute();
  return rows.map(info);
}

/** Revokes a key; effective for the next request. NOT_FOUND for an unknown id; revoking twice keeps the first time. */
export async function revokeKey(
  db: DB | AccessDB,
  id: number,
  options: { clock?: Clock } = {},
): Promise<ApiKeyInfo> {
  const adb = accessDb(db);
  await adb
    .updateTable("api_keys")
    .set({ revoked_at: isoTimestamp((options.clock ?? systemClock)()) })
    .where("id", "=", id)
    .where("revoked_at", "is", null)
    .execute();
  const row = await adb
    .selectFrom("api_keys")
    .select(["id", "name", "prefix", "rate_limit", "require_signature", "created_at", "revoked_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) throw new UnirankError("NOT_FOUND", `No API key with id ${id}`);
  return info(row);
}

const invalidKey = () => new UnirankError("INVALID_API_KEY", "The API key is not valid");

/** A key's row by its hash: read on every keyed request, so built and compiled once per database. */
const keyByHash = prepared((db, arg: (i: number) => string) =>
  accessDb(db).selectFrom("api_keys").selectAll().where("key_hash", "=", arg(0)),
);

/**
 * The key's row, or INVALID_API_KEY (unknown, revoked or malformed; the message never echoes the value).
 * A malformed value (wrong shape, bad checksum, any length other than a key's) is rejected without a database read.
 */
export async function authenticate(db: DB | AccessDB, key: string): Promise<AuthenticatedKey> {
  if (!isWellFormedApiKey(key)) throw invalidKey();
  const hash = hashApiKey(key);
  const [row] = await keyByHash(db as DB, [hash]);
  if (!row || !safeEqual(row.key_hash, hash) || row.revoked_at !== null) throw invalidKey();
  return { ...info(row), signing_secret: row.signing_secret };
}
