import { PROFILE_PARTS, UNKNOWN_PROFILE } from "../lib/scores/profile.ts";

/** A profile in words: its parts' labels ("Own site and DNS, Browser (Chromium)"); the unknown one says so. */
export function profileText(profile: string): string {
  if (profile === UNKNOWN_PROFILE) return "not measured by unirank (imported scores)";
  const names = profile.split(",");
  return PROFILE_PARTS.filter((p) => names.includes(p.name))
    .map((p) => p.label)
    .join(", ");
}
