import type { Command } from "commander";
import { DB_OPTION_HELP, out, positiveInt, table, wholeNumber, withDatabase } from "./kit.ts";

/** `unirank keys create|list|revoke`: API keys. The key and signing secret are printed once, at creation. */
export function registerKeys(program: Command): void {
  const keys = program.command("keys").description("create, list and revoke API keys");

  keys
    .command("create")
    .description(
      "create a key; prints it (and its signing secret) once: store them now, they cannot be shown again",
    )
    .argument("<name>", "who or what the key is for")
    .option(
      "--rate-limit <n>",
      "requests per rolling hour, 0 = unlimited (default 5000)",
      wholeNumber("rate limit"),
    )
    .option(
      "--require-signature",
      "every request with this key must be HMAC-signed (prints a signing secret)",
    )
    .option("--json", "print the result as JSON")
    .option("--db <path>", DB_OPTION_HELP)
    .action(async (name: string, opts) => {
      const created = await withDatabase(opts, ({ db, core }) =>
        core.createKey(db, {
          name,
          rateLimit: opts.rateLimit,
          requireSignature: Boolean(opts.requireSignature),
        }),
      );
      if (opts.json) {
        out(JSON.stringify(created));
        return;
      }
      const lines = [
        `created key ${created.id} "${created.name}" (${created.rate_limit === 0 ? "unlimited" : `${created.rate_limit} requests/hour`}${created.require_signature ? ", signed requests only" : ""})`,
        `key:            ${created.key}`,
        ...(created.signing_secret ? [`signing secret: ${created.signing_secret}`] : []),
        "Store these now: only a hash of the key is kept and they are never shown again.",
      ];
      out(lines.join("\n"));
    });

  keys
    .command("list")
    .description("list keys (id, name, prefix, limit, signing, created, revoked); never the keys themselves")
    .option("--json", "one JSON object per line")
    .option("--db <path>", DB_OPTION_HELP)
    .action(async (opts) => {
      const rows = await withDatabase(opts, ({ db, core }) => core.listKeys(db));
      if (opts.json) {
        for (const r of rows) out(JSON.stringify(r));
        return;
      }
      if (rows.length === 0) {
        out("no keys");
        return;
      }
      out(
        table([
          ["ID", "NAME", "PREFIX", "LIMIT/H", "SIGNED", "CREATED", "REVOKED"],
          ...rows.map((r) => [
            String(r.id),
            r.name,
            `${r.prefix}…`,
            r.rate_limit === 0 ? "unlimited" : String(r.rate_limit),
            r.require_signature ? "yes" : "no",
            r.created_at,
            r.revoked_at ?? "-",
          ]),
        ]),
      );
    });

  keys
    .command("revoke")
    .description("revoke a key by id; requests with it get 401 from then on")
    .argument("<id>", "the key's id (see keys list)", positiveInt("id"))
    .option("--db <path>", DB_OPTION_HELP)
    .action(async (id: number, opts) => {
      const row = await withDatabase(opts, ({ db, core }) => core.revokeKey(db, id));
      out(`revoked key ${row.id} "${row.name}" (${row.prefix}…) at ${row.revoked_at}`);
    });
}
