import type { Command } from "commander";
import type { AuditRecord, DB } from "../../lib/index.ts";
import { DB_OPTION_HELP, withDatabase } from "./kit.ts";

const COLUMNS = [
  "id",
  "time",
  "request_id",
  "key_id",
  "client_ip",
  "method",
  "path",
  "status",
  "duration_ms",
] as const;

function csvField(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** `since` as a timestamp (read by `parseTimestamp`) or a relative duration (`15m`, `24h`, `7d`). */
export function parseSince(
  text: string,
  parseTimestamp: (text: string) => Date | null,
  now = new Date(),
): Date {
  const rel = /^(\d+)([smhd])$/.exec(text.trim());
  if (rel) {
    const unit = { s: 1, m: 60, h: 3600, d: 86400 }[rel[2] as "s" | "m" | "h" | "d"];
    return new Date(now.getTime() - Number(rel[1]) * unit * 1000);
  }
  const at = parseTimestamp(text);
  if (!at)
    throw new Error(
      "--since must be a timestamp (2026-03-01, 2026-03-01T12:00:00Z) or a duration (30m, 24h, 7d)",
    );
  return at;
}

/** `unirank audit`: the audit log as NDJSON (default) or CSV, oldest first. */
export function registerAudit(program: Command): void {
  program
    .command("audit")
    .description("print the audit log (v2 and keyed requests), oldest first")
    .option(
      "--since <t>",
      "only rows at or after this time: a timestamp or a duration back from now (24h, 7d)",
    )
    .option("--format <f>", "ndjson or csv (default ndjson)", "ndjson")
    .option("--db <path>", DB_OPTION_HELP)
    .action(async (opts) => {
      if (opts.format !== "ndjson" && opts.format !== "csv")
        throw new Error("--format must be ndjson or csv");
      const [{ parseTimestamp, readAudit }, { openAccessState }] = await Promise.all([
        import("../../lib/index.ts"),
        import("../db/open.ts"),
      ]);
      const since = opts.since ? parseSince(opts.since, parseTimestamp) : undefined;
      await withDatabase(opts, async ({ config, opened }) => {
        // The audit log lives with the access state (beside a SQLite file, in its own file).
        const state = await openAccessState(config.db, opened);
        try {
          await printAudit(state.db);
        } finally {
          await state.close();
        }
      });
      async function printAudit(db: DB): Promise<void> {
        const write = (text: string) =>
          process.stdout.write(text)
            ? Promise.resolve()
            : new Promise((ok) => process.stdout.once("drain", ok));
        if (opts.format === "csv") await write(`${COLUMNS.join(",")}\n`);
        let afterId: number | undefined;
        for (;;) {
          const rows: AuditRecord[] = await readAudit(db, { since, afterId, limit: 1000 });
          if (rows.length === 0) break;
          const text = rows
            .map((r) =>
              opts.format === "csv" ? COLUMNS.map((c) => csvField(r[c])).join(",") : JSON.stringify(r),
            )
            .join("\n");
          await write(`${text}\n`);
          afterId = rows[rows.length - 1]?.id;
        }
      }
    });
}
