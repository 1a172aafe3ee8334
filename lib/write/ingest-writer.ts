import type { Insertable } from "kysely";
import { bumpGeneration } from "../db/generation.ts";
import { logLatestChanges } from "../db/latest-changes.ts";
import { prepared } from "../db/prepared.ts";
import type { Database, DB } from "../schema/database.ts";
import { SCORE_NAMES } from "../scores/catalogue.ts";
import { searchKey } from "../text/search-key.ts";
import { type Clock, sqlTimestamp, systemClock } from "../time/format.ts";
import { type CompletedScan, recordScanCompleted } from "../webhooks/outbox.ts";
import { quietDataTriggers, wakeDataTriggers } from "./data-writer.ts";
import { resolveDomainIds } from "./domain-ids.ts";
import type { UniversityRecord } from "./records.ts";
import { refreshLatest } from "./refresh-latest.ts";
import { roundScore } from "./score-precision.ts";
import type { ValidRecord, ValidScan } from "./validate-record.ts";

/** How the ingest writer treats what it is given. */
export interface IngestPolicy {
  /** Record a `scan.completed` delivery per active receiver for each newly completed scan (default true). */
  events?: boolean;
  /** Keep writing after a rejected record; by default the first one stops all writing (the caller rolls back). */
  skipInvalid?: boolean;
  clock?: Clock;
  /** Rows per multi-row INSERT (default 500). */
  batchSize?: number;
  /**
   * Re-scoring: a completed scan stored with the record's university and timestamps takes the record's scores,
   * evidence, profile and rubric version (otherwise a completed scan is final). It stays the scan it was: no
   * `scan.completed` is recorded for it.
   */
  rescore?: boolean;
}

/** Where a record came from: the source's index and the line it starts on. */
export interface IngestLocation {
  source: number;
  line: number;
}

export interface IngestCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

type Located<T> = IngestLocation & { record: T; seq: number };

const SCAN_COLUMNS = [
  "university_id",
  "source_id",
  "status",
  "started_at",
  "completed_at",
  "profile",
  "rubric_version",
  ...SCORE_NAMES,
];
const FINAL = new Set(["completed", "failed"]);

/** `rows` new scans in one statement (values row-major in SCAN_COLUMNS order); a stored `source_id` is skipped. */
const insertScans = prepared((db, arg, rows) =>
  db
    .insertInto("scans")
    .values(
      Array.from({ length: rows }, (_, r) =>
        Object.fromEntries(SCAN_COLUMNS.map((c, i) => [c, arg(r * SCAN_COLUMNS.length + i)])),
      ) as Insertable<Database["scans"]>[],
    )
    .onConflict((oc) => oc.column("source_id").doNothing())
    .returning(["id", "source_id"]),
);
/** A stored score and a record's (already one decimal): a score stored before the rule counts as its rounding. */
const sameNumber = (stored: unknown, given: number | null | undefined) =>
  stored === null || stored === undefined
    ? given === null || given === undefined
    : given !== null && given !== undefined && roundScore(Number(stored)) === given;

/**
 * The one ingest writer: every write of universities and scans (import, seed, embedders, the scanner) goes
 * through it, inside the caller's transaction, with validated records (`validateRecord`). Universities are keyed
 * by domain (inserted, updated or unchanged); scans by `source_id`: a new one is inserted, a `pending` or
 * `running` one moves on (to `running`, `completed` or `failed`), a `completed` or `failed` one is final (the
 * same content changes nothing, other content is rejected; only a re-score, under `rescore`, changes a completed one). A scan needs its university stored before the
 * write or given on an earlier record, whatever the batches. `finish` refreshes `latest_scans`, bumps the
 * generation when anything changed; `scan.completed` is recorded once, when a scan becomes completed.
 */
export class IngestWriter {
  readonly universities: IngestCounts = { inserted: 0, updated: 0, unchanged: 0 };
  readonly scans: IngestCounts = { inserted: 0, updated: 0, unchanged: 0 };
  rejected = 0;
  deliveries = 0;
  /** False once a record was rejected without `skipInvalid`: later records are only checked. */
  writing = true;
  changed = false;
  /** Whether a row of `universities` changed (the universities generation then moves too). */
  private universitiesChanged = false;

  private readonly batchSize: number;
  private readonly clock: Clock;
  private readonly createdAt: string;
  private readonly ids = new Map<string, number>();
  /** Domains this write inserted, with the sequence number of the record that did. */
  private readonly insertedAt = new Map<string, number>();
  /** Domains of rejected university records, so their scans say why (bounded). */
  private readonly rejectedDomains = new Map<string, string>();
  private readonly touched = new Set<number>();
  private unis = new Map<string, Located<UniversityRecord>>();
  private pendingScans = new Map<string, Located<ValidScan>>();
  private seq = 0;

  private constructor(
    private readonly trx: DB,
    private readonly policy: IngestPolicy,
    private readonly receiverIds: readonly number[],
    private readonly onIssue: (at: IngestLocation, message: string) => void,
  ) {
    this.batchSize = policy.batchSize ?? 500;
    this.clock = policy.clock ?? systemClock;
    this.createdAt = sqlTimestamp(this.clock());
  }

  /** A writer inside the transaction `trx`; `onIssue` hears of every rejected record. */
  static async open(
    trx: DB,
    policy: IngestPolicy,
    onIssue: (at: IngestLocation, message: string) => void = () => {},
  ): Promise<IngestWriter> {
    const receiverIds =
      policy.events !== false
        ? (await trx.selectFrom("webhook_receivers").select("id").where("active", "=", 1).execute()).map(
            (r) => Number(r.id),
          )
        : [];
    await quietDataTriggers(trx);
    return new IngestWriter(trx, policy, receiverIds, onIssue);
  }

  /** Rejects a record: counted, reported, and (without `skipInvalid`) the end of writing. */
  reject(at: IngestLocation, message: string, domain?: string): void {
    this.seq++;
    this.issue(at, message);
    if (domain && this.rejectedDomains.size < 100_000 && !this.ids.has(domain)) {
      this.rejectedDomains.set(domain, `line ${at.line}`);
    }
  }

  private issue(at: IngestLocation, message: string): void {
    this.rejected++;
    if (!this.policy.skipInvalid) this.writing = false;
    this.onIssue(at, message);
  }

  /** Adds one validated record; it is written with its batch. */
  async add(record: ValidRecord, at: IngestLocation): Promise<void> {
    const seq = ++this.seq;
    if (record.type === "university") {
      if (this.unis.has(record.domain)) await this.flushUniversities();
      this.unis.set(record.domain, { record, source: at.source, line: at.line, seq });
      if (this.unis.size >= this.batchSize) await this.flushUniversities();
    } else {
      if (this.pendingScans.has(record.source_id)) await this.flushScans();
      this.pendingScans.set(record.source_id, { record, source: at.source, line: at.line, seq });
      if (this.pendingScans.size >= this.batchSize) await this.flushScans();
    }
  }

  /**
   * Writes what is batched, then (when anything changed) refreshes `latest_scans` and bumps the generation; the
   * data triggers, quiet while the writer writes, are awake again when it returns. Call it before the commit.
   */
  async finish(): Promise<void> {
    await this.flushUniversities();
    await this.flushScans();
    if (this.writing && this.changed) {
      await refreshLatest(this.trx, this.touched);
      await bumpGeneration(this.trx, { universities: this.universitiesChanged });
      // Rankings and histories kept in memory are then patched with the touched universities, not read again whole.
      if (!this.universitiesChanged) await logLatestChanges(this.trx, this.touched);
    }
    await wakeDataTriggers(this.trx);
  }

  private async flushUniversities(): Promise<void> {
    if (this.unis.size === 0) return;
    const trx = this.trx;
    const batch = [...this.unis.values()];
    this.unis = new Map();
    const existing = new Map(
      (
        await trx
          .selectFrom("universities")
          .select(["id", "domain", "name", "country", "created_at"])
          .where(
            "domain",
            "in",
            batch.map((b) => b.record.domain),
          )
          .execute()
      ).map((r) => [r.domain, r]),
    );
    const inserts: Located<UniversityRecord>[] = [];
    for (const located of batch) {
      const u = located.record;
      const ex = existing.get(u.domain);
      if (!ex) {
        inserts.push(located);
        continue;
      }
      const id = Number(ex.id);
      this.ids.set(u.domain, id);
      const differs =
        ex.name !== u.name ||
        ex.country !== u.country ||
        (u.created_at !== undefined && u.created_at !== ex.created_at);
      if (!differs) {
        this.universities.unchanged++;
        continue;
      }
      this.universities.updated++;
      if (!this.writing) continue;
      await trx
        .updateTable("universities")
        .set({
          name: u.name,
          country: u.country,
          search_text: searchKey(`${u.name} ${u.domain}`),
          ...(u.created_at ? { created_at: u.created_at } : {}),
        })
        .where("id", "=", id)
        .execute();
      this.changed = true;
      this.universitiesChanged = true;
      // latest_scans copies the country for country rankings.
      if (ex.country !== u.country) this.touched.add(id);
    }
    if (inserts.length === 0) return;
    this.universities.inserted += inserts.length;
    for (const { record, seq } of inserts) this.insertedAt.set(record.domain, seq);
    if (!this.writing) {
      for (const { record } of inserts) this.ids.set(record.domain, -1);
      return;
    }
    const rows = await trx
      .insertInto("universities")
      .values(
        inserts.map(({ record: u }) => ({
          domain: u.domain,
          name: u.name,
          country: u.country,
          created_at: u.created_at ?? this.createdAt,
          search_text: searchKey(`${u.name} ${u.domain}`),
        })),
      )
      .returning(["id", "domain"])
      .execute();
    for (const r of rows) this.ids.set(r.domain, Number(r.id));
    this.changed = true;
    this.universitiesChanged = true;
  }

  private async flushScans(): Promise<void> {
    if (this.pendingScans.size === 0) return;
    await this.flushUniversities();
    const trx = this.trx;
    const ids = this.ids;
    let batch = [...this.pendingScans.values()];
    this.pendingScans = new Map();
    await resolveDomainIds(
      trx,
      ids,
      batch.map((b) => b.record.domain),
    );
    batch = batch.filter((b) => {
      const domain = b.record.domain;
      const insertedAt = this.insertedAt.get(domain);
      if (ids.has(domain) && (insertedAt === undefined || insertedAt < b.seq)) return true;
      const why = this.rejectedDomains.get(domain);
      this.issue(
        b,
        why
          ? `scan for domain ${domain}, whose university record was rejected (${why})`
          : `scan for domain ${domain}, which is neither stored nor imported before this line`,
      );
      return false;
    });
    if (batch.length === 0 || !this.writing) return;
    const completed: CompletedScan[] = [];
    // New scans go in at once; those whose source_id is already stored are left to the comparison below.
    const params: unknown[] = [];
    for (const { record: s } of batch) {
      params.push(
        ids.get(s.domain),
        s.source_id,
        s.status,
        s.started_at,
        s.completed_at,
        s.profile,
        s.rubric_version,
      );
      for (const n of SCORE_NAMES) params.push(s[n] ?? null);
    }
    const inserted = await insertScans(trx, params, batch.length);
    if (inserted.length > 0) this.changed = true;
    this.scans.inserted += inserted.length;
    const idOf = new Map(inserted.map((r) => [r.source_id, Number(r.id)]));
    const stored: Located<ValidScan>[] = [];
    const evidence: { scan_id: number; evidence: string }[] = [];
    for (const located of batch) {
      const s = located.record;
      const id = idOf.get(s.source_id);
      if (id === undefined) {
        stored.push(located);
        continue;
      }
      if (s.evidence !== null) evidence.push({ scan_id: id, evidence: s.evidence });
      if (s.status === "completed") {
        const universityId = ids.get(s.domain) as number;
        this.touched.add(universityId);
        completed.push(completedScan(id, universityId, s));
      }
    }
    if (evidence.length > 0) await trx.insertInto("scan_evidence").values(evidence).execute();
    if (stored.length > 0) await this.moveOn(stored, completed);
    if (this.writing && completed.length > 0 && this.receiverIds.length > 0) {
      this.deliveries += await recordScanCompleted(trx, completed, {
        clock: this.clock,
        receiverIds: this.receiverIds,
      });
    }
  }

  /** Scans whose `source_id` is stored: unchanged, moved on (pending/running), or rejected (final). */
  private async moveOn(stored: Located<ValidScan>[], completed: CompletedScan[]): Promise<void> {
    const trx = this.trx;
    const existing = new Map(
      (
        await trx
          .selectFrom("scans")
          .leftJoin("scan_evidence", "scan_evidence.scan_id", "scans.id")
          .selectAll("scans")
          .select("scan_evidence.evidence")
          .where(
            "scans.source_id",
            "in",
            stored.map((b) => b.record.source_id),
          )
          .execute()
      ).map((r) => [r.source_id as string, r]),
    );
    for (const located of stored) {
      const s = located.record;
      const universityId = this.ids.get(s.domain) as number;
      const ex = existing.get(s.source_id);
      if (!ex) continue;
      const same =
        ex.status === s.status &&
        Number(ex.university_id) === universityId &&
        ex.started_at === s.started_at &&
        ex.completed_at === s.completed_at &&
        ex.profile === s.profile &&
        (ex.rubric_version == null ? null : Number(ex.rubric_version)) === s.rubric_version &&
        (ex.evidence ?? null) === s.evidence &&
        SCORE_NAMES.every((n) => sameNumber(ex[n], s[n]));
      if (same) {
        this.scans.unchanged++;
        continue;
      }
      const rescore =
        this.policy.rescore === true &&
        ex.status === "completed" &&
        s.status === "completed" &&
        Number(ex.university_id) === universityId &&
        ex.started_at === s.started_at &&
        ex.completed_at === s.completed_at;
      if (FINAL.has(ex.status) && !rescore) {
        this.issue(
          located,
          `scan ${s.source_id} is already stored as ${ex.status} with other values; a completed or failed scan does not change (give a new scan its own source_id)`,
        );
        continue;
      }
      this.scans.updated++;
      if (!this.writing) continue;
      const row: Record<string, unknown> = {
        university_id: universityId,
        status: s.status,
        started_at: s.started_at,
        completed_at: s.completed_at,
        profile: s.profile,
        rubric_version: s.rubric_version,
      };
      for (const n of SCORE_NAMES) row[n] = s[n] ?? null;
      const id = Number(ex.id);
      await trx.updateTable("scans").set(row).where("id", "=", id).execute();
      // The record is the scan's whole state: its evidence replaces (or removes) what was stored.
      if ((ex.evidence ?? null) !== s.evidence) {
        await trx.deleteFrom("scan_evidence").where("scan_id", "=", id).execute();
        if (s.evidence !== null) {
          await trx.insertInto("scan_evidence").values({ scan_id: id, evidence: s.evidence }).execute();
        }
      }
      this.changed = true;
      if (Number(ex.university_id) !== universityId) this.touched.add(Number(ex.university_id));
      if (s.status === "completed") {
        this.touched.add(universityId);
        // A re-scored scan completed before: it is not announced again.
        if (!rescore) completed.push(completedScan(id, universityId, s));
      }
    }
  }
}

function completedScan(scanId: number, universityId: number, s: ValidScan): CompletedScan {
  return {
    scan_id: scanId,
    university_id: universityId,
    domain: s.domain,
    overall_score: s.overall_score ?? null,
    completed_at: s.completed_at as string,
  };
}
