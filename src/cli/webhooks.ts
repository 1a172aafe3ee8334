import { randomBytes } from "node:crypto";
import type { Command } from "commander";
import type { DeliveryStatus } from "../../lib/index.ts";
import { DB_OPTION_HELP, out, positiveInt, table, withDatabase } from "./kit.ts";

const ALLOW_PRIVATE_HELP =
  "allow receivers on loopback, private, link-local or metadata addresses (env UNIRANK_ALLOW_PRIVATE_WEBHOOKS=1)";

const mask = (secret: string) => (secret.length <= 4 ? "****" : `${secret.slice(0, 4)}…`);

/** `unirank webhooks …`: receivers of scan.completed, their deliveries and attempts. */
export function registerWebhooks(program: Command): void {
  const webhooks = program
    .command("webhooks")
    .description("webhook receivers of scan.completed, their deliveries and attempts");

  webhooks
    .command("add")
    .description("add a receiver; every newly completed scan is then POSTed to it, signed with the secret")
    .argument("<url>", "http(s) URL of the receiver")
    .option(
      "--secret <secret>",
      "shared secret for X-Webhook-Signature (default: a random one, printed once)",
    )
    .option("--inactive", "add it paused (enable it with `webhooks enable ID`)")
    .option("--allow-private-webhooks", ALLOW_PRIVATE_HELP)
    .option("--db <path>", DB_OPTION_HELP)
    .action(async (url: string, opts) => {
      const [{ loadConfig }, { refuseReceiverUrl }] = await Promise.all([
        import("../config.ts"),
        import("../../lib/node/index.ts"),
      ]);
      const config = loadConfig(opts);
      let refused: string | null;
      try {
        refused = await refuseReceiverUrl(url, { allowPrivate: config.allowPrivateWebhooks });
      } catch (e) {
        process.stderr.write(`warning: ${(e as Error).message}; checked again at every delivery\n`);
        refused = null;
      }
      if (refused) throw new Error(refused);
      const secret: string = opts.secret ?? randomBytes(24).toString("hex");
      const receiver = await withDatabase(opts, ({ db, core }) =>
        core.addReceiver(db, { url, secret, active: !opts.inactive }),
      );
      out(`added webhook receiver ${receiver.id}: ${receiver.url}${receiver.active ? "" : " (inactive)"}`);
      if (!opts.secret) out(`secret (shown once): ${secret}`);
    });

  webhooks
    .command("list")
    .description("list receivers with their delivery counts")
    .option("--db <path>", DB_OPTION_HELP)
    .action(async (opts) => {
      const receivers = await withDatabase(opts, ({ db, core }) => core.listReceivers(db));
      if (receivers.length === 0) {
        out("no webhook receivers");
        return;
      }
      out(
        table([
          ["ID", "ACTIVE", "URL", "SECRET", "PENDING", "DELIVERED", "FAILED", "CREATED"],
          ...receivers.map((r) => [
            String(r.id),
            r.active ? "yes" : "no",
            r.url,
            mask(r.secret),
            String(r.pending),
            String(r.delivered),
            String(r.failed),
            r.created_at,
          ]),
        ]),
      );
    });

  webhooks
    .command("remove")
    .description("remove a receiver with its deliveries")
    .argument("<id>", "receiver id", positiveInt("id"))
    .option("--db <path>", DB_OPTION_HELP)
    .action(async (id: number, opts) => {
      await withDatabase(opts, ({ db, core }) => core.removeReceiver(db, id));
      out(`removed webhook receiver ${id}`);
    });

  for (const [name, active] of [
    ["enable", true],
    ["disable", false],
  ] as const) {
    webhooks
      .command(name)
      .description(
        active ? "resume a paused receiver" : "pause a receiver: no new deliveries, pending ones wait",
      )
      .argument("<id>", "receiver id", positiveInt("id"))
      .option("--db <path>", DB_OPTION_HELP)
      .action(async (id: number, opts) => {
        await withDatabase(opts, ({ db, core }) => core.setReceiverActive(db, id, active));
        out(`webhook receiver ${id} ${active ? "enabled" : "disabled"}`);
      });
  }

  webhooks
    .command("deliveries")
    .description("list deliveries, newest first")
    .option("--failed", "only failed deliveries")
    .option("--status <status>", "only pending, delivered or failed deliveries")
    .option("--receiver <id>", "only deliveries to this receiver", positiveInt("receiver"))
    .option("--limit <n>", "how many (default 50)", positiveInt("limit"))
    .option("--json", "NDJSON, one delivery a line")
    .option("--db <path>", DB_OPTION_HELP)
    .action(async (opts) => {
      const status = (opts.failed ? "failed" : opts.status) as DeliveryStatus | undefined;
      if (status && !["pending", "delivered", "failed"].includes(status)) {
        throw new Error("--status must be pending, delivered or failed");
      }
      const rows = await withDatabase(opts, ({ db, core }) =>
        core.listDeliveries(db, { status, receiverId: opts.receiver, limit: opts.limit ?? 50 }),
      );
      if (opts.json) {
        for (const r of rows) out(JSON.stringify(r));
        return;
      }
      if (rows.length === 0) {
        out("no deliveries");
        return;
      }
      out(
        table([
          [
            "ID",
            "DELIVERY",
            "RECEIVER",
            "EVENT",
            "SCAN",
            "STATUS",
            "ATTEMPTS",
            "NEXT ATTEMPT",
            "LAST RESULT",
          ],
          ...rows.map((r) => [
            String(r.id),
            r.uuid,
            String(r.receiver_id),
            r.event,
            String(r.scan_id ?? ""),
            r.status,
            String(r.attempts),
            r.next_attempt_at ?? "",
            r.last_error ?? (r.last_status === null ? "" : `HTTP ${r.last_status}`),
          ]),
        ]),
      );
    });

  webhooks
    .command("attempts")
    .description("every attempt of one delivery: time, HTTP status, duration, error")
    .argument("<id>", "delivery number or X-Webhook-Delivery id")
    .option("--db <path>", DB_OPTION_HELP)
    .action(async (id: string, opts) => {
      const rows = await withDatabase(opts, ({ db, core }) => core.deliveryAttempts(db, id));
      if (rows.length === 0) {
        out("no attempts yet");
        return;
      }
      out(
        table([
          ["ATTEMPT", "STARTED", "STATUS", "DURATION", "ERROR"],
          ...rows.map((a) => [
            String(a.attempt),
            a.started_at,
            a.status_code === null ? "-" : String(a.status_code),
            `${a.duration_ms} ms`,
            a.error ?? "",
          ]),
        ]),
      );
    });

  webhooks
    .command("redeliver")
    .description("queue a delivery again, due now, with a fresh retry schedule (same delivery id and body)")
    .argument("<id>", "delivery number or X-Webhook-Delivery id")
    .option("--db <path>", DB_OPTION_HELP)
    .action(async (id: string, opts) => {
      const n = await withDatabase(opts, ({ db, core }) => core.redeliver(db, id));
      out(
        `delivery ${n} queued; a running server sends it within a second, or run \`unirank webhooks deliver\``,
      );
    });

  webhooks
    .command("deliver")
    .description("send every due delivery once, then exit (for operators without a running server)")
    .option("--allow-private-webhooks", ALLOW_PRIVATE_HELP)
    .option("--webhook-timeout <seconds>", "timeout of one attempt (env UNIRANK_WEBHOOK_TIMEOUT; default 10)")
    .option("--concurrency <n>", "deliveries in flight at once (default 8)", positiveInt("concurrency", 1000))
    .option("--db <path>", DB_OPTION_HELP)
    .action(async (opts) => {
      const { runDeliveryPass } = await import("../../lib/node/index.ts");
      const summary = await withDatabase(opts, ({ db, config }) =>
        runDeliveryPass(db, {
          allowPrivate: config.allowPrivateWebhooks,
          timeoutMs: config.webhookTimeoutMs,
          concurrency: opts.concurrency || 8,
          log: (level, message, fields) =>
            process.stderr.write(`${level}: ${message} ${fields ? JSON.stringify(fields) : ""}\n`),
        }),
      );
      out(
        `delivered ${summary.delivered}, will retry ${summary.retrying}, failed ${summary.failed}${summary.released ? `, released ${summary.released}` : ""}`,
      );
    });
}
