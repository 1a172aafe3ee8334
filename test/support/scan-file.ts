import { createWriteStream } from "node:fs";
import { SCORE_NAMES } from "../../lib/index.ts";

/**
 * Writes a large synthetic import file without holding it in memory: `universities` universities, then
 * `scansPerUniversity` completed scans of each (source ids `gen-U-S`). Scores are cheap pseudo-random numbers.
 * Run directly: `bun test/support/scan-file.ts OUT.ndjson UNIVERSITIES SCANS_PER_UNIVERSITY [csv]`.
 */
export async function writeScanFile(
  path: string,
  universities: number,
  scansPerUniversity: number,
  format: "ndjson" | "csv" = path.endsWith(".csv") ? "csv" : "ndjson",
): Promise<number> {
  const out = createWriteStream(path);
  const write = async (line: string) => {
    if (!out.write(line)) await new Promise((ok) => out.once("drain", ok));
  };
  let seed = 12345;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return Math.round((seed / 0x7fffffff) * 1000) / 10;
  };
  const columns = [
    "type",
    "domain",
    "name",
    "country",
    "source_id",
    "status",
    "started_at",
    "completed_at",
    ...SCORE_NAMES,
  ];
  if (format === "csv") await write(`${columns.join(",")}\n`);
  for (let u = 1; u <= universities; u++) {
    const domain = `gen-${u}.example`;
    if (format === "csv")
      await write(
        `university,${domain},"Generated University ${u}, Campus ""${u % 7}""",DE${",".repeat(columns.length - 4)}\n`,
      );
    else
      await write(
        `${JSON.stringify({ type: "university", domain, name: `Generated University ${u}`, country: "DE" })}\n`,
      );
  }
  let scans = 0;
  const base = Date.UTC(2024, 0, 1);
  for (let s = 1; s <= scansPerUniversity; s++) {
    for (let u = 1; u <= universities; u++) {
      const completed = new Date(base + (s * universities + u) * 60_000)
        .toISOString()
        .replace(".000Z", "+00:00");
      const scores = SCORE_NAMES.map(() => rnd());
      if (format === "csv") {
        await write(`scan,gen-${u}.example,,,gen-${u}-${s},completed,,${completed},${scores.join(",")}\n`);
      } else {
        const rec: Record<string, unknown> = {
          type: "scan",
          source_id: `gen-${u}-${s}`,
          domain: `gen-${u}.example`,
          status: "completed",
          completed_at: completed,
        };
        SCORE_NAMES.forEach((name, i) => {
          rec[name] = scores[i];
        });
        await write(`${JSON.stringify(rec)}\n`);
      }
      scans++;
    }
  }
  await new Promise<void>((ok, fail) => out.end((e?: Error | null) => (e ? fail(e) : ok())));
  return scans;
}

if (import.meta.main) {
  const [path, u, s] = process.argv.slice(2);
  if (!path) throw new Error("usage: bun test/support/scan-file.ts OUT UNIVERSITIES SCANS_PER_UNIVERSITY");
  const n = await writeScanFile(path, Number(u ?? 1000), Number(s ?? 10));
  console.log(`wrote ${n} scans to ${path}`);
}
