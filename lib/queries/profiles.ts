import { generationMemo } from "../db/generation-memo.ts";
import { invalidParameter } from "../errors.ts";
import type { DB } from "../schema/database.ts";
import type { RankedScoreName } from "../scores/catalogue.ts";
import {
  ALL_PROFILES,
  canonicalProfile,
  PROFILE_BOUND_SCORES,
  PROFILE_PART_NAMES,
  profileParts,
  UNKNOWN_PROFILE,
} from "../scores/profile.ts";

/**
 * Like with like: a ranking by overall or a composite ranks the universities whose latest completed scan has one
 * profile, by default the main profile (the one most universities' latest scans have); a ranking by a sub-score
 * ranks every university that has it measured. `profile=` picks another profile, `profile=all` ranks across them
 * (docs/scores.md).
 */

/** Universities per profile of their latest completed scan: the main profile first. */
export type ProfileCensus = Record<string, number>;

/** The profile a ranked list holds (null: every profile) and the universities per profile, main first. */
export interface ProfileChoice {
  profile: string | null;
  profiles: ProfileCensus;
}

const censusMemo = generationMemo(async (db: DB): Promise<ProfileCensus> => {
  const rows = await db
    .selectFrom("latest_scans")
    .select(["profile", (eb) => eb.fn.countAll<number>().as("n")])
    .groupBy("profile")
    .execute();
  const parts = (p: string) => profileParts(p).length;
  rows.sort(
    (a, b) =>
      Number(b.n) - Number(a.n) ||
      parts(b.profile) - parts(a.profile) ||
      (a.profile < b.profile ? -1 : a.profile > b.profile ? 1 : 0),
  );
  return Object.fromEntries(rows.map((r) => [r.profile, Number(r.n)]));
});

/** Universities per profile of their latest completed scan, the main profile first; built once per generation. */
export const profileCensus = (db: DB): Promise<ProfileCensus> => censusMemo(db, "");

/** A `profile` parameter in its canonical form, `all`, or a 400 saying what it may be. */
export function parseProfileParam(text: string): string {
  if (text.trim().toLowerCase() === ALL_PROFILES) return ALL_PROFILES;
  const profile = canonicalProfile(text);
  if (profile === null) {
    throw invalidParameter([
      {
        param: "profile",
        message: `profile must be ${ALL_PROFILES}, ${UNKNOWN_PROFILE}, or distinct parts among ${PROFILE_PART_NAMES.join(", ")}, comma-separated`,
      },
    ]);
  }
  return profile;
}

/**
 * The profile a list ranked by `score` holds: the one asked for, else the main profile for overall and the
 * composites and every profile for a sub-score.
 */
export async function chooseProfile(
  db: DB,
  score: RankedScoreName,
  requested: string | undefined,
): Promise<ProfileChoice> {
  const profiles = await profileCensus(db);
  const asked = requested === undefined ? undefined : parseProfileParam(requested);
  if (asked === ALL_PROFILES) return { profile: null, profiles };
  if (asked !== undefined) return { profile: asked, profiles };
  if (!PROFILE_BOUND_SCORES.has(score)) return { profile: null, profiles };
  return { profile: Object.keys(profiles)[0] ?? null, profiles };
}
