import { SUB_SCORES, type SubScoreName } from "../scores/catalogue.ts";
import { deriveScores, round1 } from "../scores/derive.ts";
import { isoTimestamp, sqlTimestamp } from "../time/format.ts";
import type { IngestRecord, ScanRecord, UniversityRecord } from "../write/records.ts";
import { COUNTRIES, LATIN } from "./countries.ts";
import { Random } from "./random.ts";

export interface GenerateOptions {
  /** Number of universities (default 500). */
  universities?: number;
  /** PRNG seed (default 42); the same seed always yields the same dataset. */
  seed?: number;
  /** The dataset's "now": scans span the two years before it (default 2026-11-20T00:00:00Z). */
  anchor?: Date;
  /** Completed scans per scanned university, on average (default 5). */
  scansPerUniversity?: number;
}

export const DEFAULT_ANCHOR = new Date("2026-11-20T00:00:00Z");
const DAY = 86_400_000;
/** Syllables of domain slugs: the first 15 Latin ones (changing them would change every generated dataset). */
const SLUG_SYLLABLES = LATIN.slice(0, 15);

const clamp = (n: number) => Math.min(100, Math.max(0, n));

/**
 * Yields a deterministic synthetic dataset: fictional universities under `.example` domains across 46
 * countries, and for most of them several completed scans over two years with correlated scores (a latent
 * quality per university, a bias per score group, drift and noise), some null sub-scores, ties, pending,
 * running and failed scans, and some universities never scanned. Records come universities first.
 */
export function* generateDataset(options: GenerateOptions = {}): Generator<IngestRecord> {
  const { universities = 500, seed = 42, anchor = DEFAULT_ANCHOR, scansPerUniversity = 5 } = options;
  const rnd = new Random(seed);
  const unis: { rec: UniversityRecord; quality: number; bias: Record<string, number>; research: boolean }[] =
    [];
  for (let i = 1; i <= universities; i++) {
    const style = COUNTRIES[(i * 7 + rnd.int(0, 3)) % COUNTRIES.length]!;
    const place = Array.from({ length: rnd.int(2, 3) }, () => rnd.pick(style.syllables)).join("");
    const placeName = place.charAt(0).toUpperCase() + place.slice(1);
    const slug = Array.from({ length: rnd.int(2, 3) }, () => rnd.pick(SLUG_SYLLABLES)).join("");
    const created = new Date(anchor.getTime() - rnd.int(400, 1200) * DAY - rnd.int(0, DAY / 1000) * 1000);
    const rec: UniversityRecord = {
      type: "university",
      domain: `${slug}-${i}.${style.code.toLowerCase()}.example`,
      name: rnd.pick(style.patterns).replace("{}", placeName),
      country: style.code,
      created_at: sqlTimestamp(created),
    };
    const bias: Record<string, number> = {};
    for (const group of ["webometrics", "research", "presence", "technical"]) bias[group] = rnd.normal(0, 8);
    unis.push({ rec, quality: clamp(rnd.normal(58, 14)), bias, research: rnd.chance(0.9) });
    yield rec;
  }
  let scanNo = 0;
  for (const [index, u] of unis.entries()) {
    if (rnd.chance(0.06)) continue; // never scanned
    const count = Math.max(1, Math.round(rnd.normal(scansPerUniversity, 1.5)));
    const recentDrop = rnd.chance(0.12) ? rnd.int(6, 20) : 0;
    // Scans spread over two years; a third of universities were scanned in the last three weeks.
    const lastAt = anchor.getTime() - (rnd.chance(0.35) ? rnd.int(1, 21) : rnd.int(22, 120)) * DAY;
    const span = 730 * DAY - (anchor.getTime() - lastAt);
    let level = u.quality - rnd.int(0, 8);
    for (let k = 0; k < count; k++) {
      const at = count === 1 ? lastAt : lastAt - Math.round(((count - 1 - k) * span) / (count - 1));
      level = clamp(level + rnd.normal(1, 2.5));
      const isLast = k === count - 1;
      const base = isLast ? clamp(level - recentDrop) : level;
      scanNo++;
      yield scanRecord(rnd, u, index + 1, scanNo, base, new Date(at));
    }
    if (rnd.chance(0.05)) {
      scanNo++;
      const status = rnd.pick(["pending", "running", "failed"] as const);
      const started = new Date(anchor.getTime() - rnd.int(0, 3) * DAY);
      yield {
        type: "scan",
        source_id: `demo-${index + 1}-${scanNo}`,
        domain: u.rec.domain,
        status,
        started_at: status === "pending" ? null : isoTimestamp(started),
        completed_at: null,
      };
    }
  }
}

function scanRecord(
  rnd: Random,
  u: { rec: UniversityRecord; bias: Record<string, number>; research: boolean },
  uniNo: number,
  scanNo: number,
  level: number,
  completed: Date,
): ScanRecord {
  const scores: Partial<Record<SubScoreName, number | null>> = {};
  for (const def of SUB_SCORES) {
    if (def.group === "research" && !u.research) scores[def.name] = null;
    else if (rnd.chance(0.04)) scores[def.name] = null;
    else {
      const v = clamp(level + (u.bias[def.group] ?? 0) + rnd.normal(0, 9));
      // Binary-ish checks (HSTS, DNSSEC, repository) land on whole numbers, which makes ties.
      scores[def.name] = /hsts|dnssec|repository|http2/.test(def.name) ? Math.round(v / 10) * 10 : round1(v);
    }
  }
  const derived = deriveScores(scores);
  return {
    type: "scan",
    source_id: `demo-${uniNo}-${scanNo}`,
    domain: u.rec.domain,
    status: "completed",
    started_at: isoTimestamp(new Date(completed.getTime() - rnd.int(120, 1800) * 1000)),
    completed_at: isoTimestamp(completed),
    ...(derived as Partial<Record<string, number | null>>),
  };
}
