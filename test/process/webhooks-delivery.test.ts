import { afterEach, beforeEach, expect, test } from "bun:test";
import { verify as octokitVerify } from "@octokit/webhooks-methods";
import {
  addReceiver,
  deliveryAttempts,
  type ImportSource,
  importRecords,
  listDeliveries,
  setReceiverActive,
  writeRecords,
} from "../../lib/index.ts";
import { isPrivateAddress, refuseReceiverUrl } from "../../lib/node/address-guard.ts";
import { runDeliveryPass } from "../../lib/node/dispatcher.ts";
import { RETRY_SCHEDULE_SECONDS } from "../../lib/webhooks/schedule.ts";
import { describeEachDatabase } from "../support/databases.ts";

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A real receiver on loopback; `answer` decides per request (the n-th, from 1). */
function receiver(
  answer: (n: number, req: Request) => Response | Promise<Response> = () => new Response("ok"),
) {
  const received: Received[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const body = await req.text();
      received.push({ path: new URL(req.url).pathname, headers: Object.fromEntries(req.headers), body });
      return answer(received.length, req);
    },
  });
  return { url: `http://127.0.0.1:${server.port}/hook`, received, stop: () => server.stop(true) };
}

const SECRET = "It's a Secret to Everybody";
const nd = (lines: unknown[]): ImportSource => ({
  name: "t.ndjson",
  format: "ndjson",
  content: [lines.map((l) => JSON.stringify(l)).join("\n")],
});
const scan = (id: string, overall: number, status = "completed") => ({
  type: "scan",
  source_id: id,
  domain: "hook.example",
  status,
  completed_at: status === "completed" ? "2026-03-01T12:00:00+00:00" : null,
  overall_score: status === "completed" ? overall : null,
});
const UNI = { type: "university", domain: "hook.example", name: "Hook University", country: "NL" };

/** A clock the test moves by hand (starting a little after the real time the outbox rows were written). */
function manualClock() {
  let now = Math.ceil((Date.now() + 1000) / 1000) * 1000;
  return {
    clock: () => new Date(now),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** A promise the test resolves: a receiver that waits on it holds its answer until then. */
const gates: (() => void)[] = [];
function gate() {
  let open = () => {};
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  gates.push(open);
  return { wait, open };
}

const servers: { stop(): void }[] = [];
const serve = (answer?: Parameters<typeof receiver>[0]) => {
  const r = receiver(answer);
  servers.push(r);
  return r;
};
afterEach(() => {
  for (const open of gates.splice(0)) open();
  for (const s of servers.splice(0)) s.stop();
});

describeEachDatabase("webhook deliveries", (get) => {
  beforeEach(async () => {
    await get().reset();
  });

  test("outbox: one delivery per active receiver per newly completed scan, in the import and writeRecords", async () => {
    const { db } = get();
    const a = await addReceiver(db, { url: "http://127.0.0.1:9/a", secret: "a" });
    await addReceiver(db, { url: "http://127.0.0.1:9/b", secret: "b" });
    const paused = await addReceiver(db, { url: "http://127.0.0.1:9/c", secret: "c" });
    await setReceiverActive(db, paused.id, false);
    const r = await importRecords(db, [nd([UNI, scan("o1", 60), scan("o2", 70), scan("o3", 0, "pending")])]);
    expect(r.deliveries).toBe(4);
    const again = await importRecords(db, [nd([UNI, scan("o1", 60), scan("o2", 70)])]);
    expect(again.deliveries).toBe(0);
    const quiet = await importRecords(db, [nd([scan("o4", 80)])], { events: false });
    expect(quiet.deliveries).toBe(0);
    await writeRecords(db, [scan("o5", 90) as never]);
    const rows = await listDeliveries(db, { limit: 100 });
    expect(rows.filter((d) => d.receiver_id === a.id).map((d) => d.scan_id)).toHaveLength(3);
    expect(rows.some((d) => d.receiver_id === paused.id)).toBe(false);
    // No completed scan without its deliveries (except the one imported with events off).
    const orphans = await db
      .selectFrom("scans")
      .select("source_id")
      .where("status", "=", "completed")
      .where((eb) =>
        eb(
          eb
            .selectFrom("webhook_deliveries")
            .select((e) => e.fn.countAll().as("n"))
            .whereRef("scan_id", "=", "scans.id"),
          "<>",
          2,
        ),
      )
      .execute();
    expect(orphans.map((o) => o.source_id)).toEqual(["o4"]);
  });

  test("a delivery is a signed POST with the exact payload, accepted by @octokit/webhooks-methods", async () => {
    const { db } = get();
    const rx = serve();
    await addReceiver(db, { url: rx.url, secret: SECRET });
    await importRecords(db, [nd([UNI, scan("p1", 71.5)])]);
    const summary = await runDeliveryPass(db, { allowPrivate: true });
    expect(summary).toEqual({ delivered: 1, retrying: 0, failed: 0, released: 0 });
    expect(rx.received).toHaveLength(1);
    const [req] = rx.received;
    if (!req) throw new Error("nothing received");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["x-webhook-event"]).toBe("scan.completed");
    expect(await octokitVerify(SECRET, req.body, req.headers["x-webhook-signature"] ?? "")).toBe(true);
    const [delivery] = await listDeliveries(db);
    expect(req.headers["x-webhook-delivery"]).toBe(delivery?.uuid as string);
    expect(delivery?.status).toBe("delivered");
    const body = JSON.parse(req.body);
    const stored = await db.selectFrom("scans").selectAll().executeTakeFirstOrThrow();
    expect(Object.keys(body)).toEqual(["event", "timestamp", "data"]);
    expect(body.event).toBe("scan.completed");
    expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(body.data).toEqual({
      scan_id: stored.id,
      university_id: stored.university_id,
      domain: "hook.example",
      overall_score: 71.5,
      completed_at: "2026-03-01T12:00:00+00:00",
    });
    const attempts = await deliveryAttempts(db, delivery?.id as number);
    expect(attempts.map((a) => [a.attempt, a.status_code, a.error])).toEqual([[1, 200, null]]);
  });

  test("500 twice then 200: the same delivery id three times, then done", async () => {
    const { db } = get();
    const rx = serve((n) => new Response("nope", { status: n <= 2 ? 500 : 200 }));
    await addReceiver(db, { url: rx.url, secret: "s" });
    await importRecords(db, [nd([UNI, scan("r1", 50)])]);
    const t = manualClock();
    const opts = { allowPrivate: true, clock: t.clock, random: () => 0.5 };
    expect((await runDeliveryPass(db, opts)).retrying).toBe(1);
    expect((await runDeliveryPass(db, opts)).retrying).toBe(0); // not due yet
    expect(rx.received).toHaveLength(1);
    t.advance(61_000);
    expect((await runDeliveryPass(db, opts)).retrying).toBe(1);
    t.advance(301_000);
    expect((await runDeliveryPass(db, opts)).delivered).toBe(1);
    t.advance(86_400_000);
    await runDeliveryPass(db, opts);
    expect(rx.received).toHaveLength(3);
    expect(new Set(rx.received.map((r) => r.headers["x-webhook-delivery"])).size).toBe(1);
    expect(new Set(rx.received.map((r) => r.body)).size).toBe(1);
    const [d] = await listDeliveries(db);
    expect(d?.status).toBe("delivered");
    const attempts = await deliveryAttempts(db, d?.uuid as string);
    expect(attempts.map((a) => a.status_code)).toEqual([500, 500, 200]);
    expect(attempts[0]?.error).toBe("HTTP 500: nope");
  });

  test("a receiver that never answers ends failed after the whole schedule", async () => {
    const { db } = get();
    const rx = serve(() => new Promise<Response>(() => {}));
    await addReceiver(db, { url: rx.url, secret: "s" });
    await importRecords(db, [nd([UNI, scan("n1", 50)])]);
    const t = manualClock();
    const opts = { allowPrivate: true, clock: t.clock, timeoutMs: 150, random: () => 0.5 };
    const due: number[] = [];
    for (let i = 0; i <= RETRY_SCHEDULE_SECONDS.length; i++) {
      await runDeliveryPass(db, opts);
      const [d] = await listDeliveries(db);
      if (d?.next_attempt_at)
        due.push(Math.round((Date.parse(d.next_attempt_at) - t.clock().getTime()) / 1000));
      t.advance(13 * 3600_000);
    }
    expect(due).toEqual([...RETRY_SCHEDULE_SECONDS]);
    const [d] = await listDeliveries(db);
    expect(d?.status).toBe("failed");
    expect(d?.attempts).toBe(RETRY_SCHEDULE_SECONDS.length + 1);
    await runDeliveryPass(db, opts);
    expect(rx.received).toHaveLength(RETRY_SCHEDULE_SECONDS.length + 1);
    const attempts = await deliveryAttempts(db, d?.id as number);
    expect(attempts).toHaveLength(7);
    expect(attempts.every((a) => a.status_code === null && a.error === "timeout after 150 ms")).toBe(true);
  });

  test("a receiver that sleeps past the timeout is retried, with the same id", async () => {
    const { db } = get();
    const held = gate();
    const rx = serve(async (n) => {
      if (n === 1) await held.wait;
      return new Response(null, { status: 204 });
    });
    await addReceiver(db, { url: rx.url, secret: "s" });
    await importRecords(db, [nd([UNI, scan("t1", 50)])]);
    const t = manualClock();
    const opts = { allowPrivate: true, clock: t.clock, timeoutMs: 200 };
    expect((await runDeliveryPass(db, opts)).retrying).toBe(1);
    t.advance(75_000);
    expect((await runDeliveryPass(db, opts)).delivered).toBe(1);
    expect(rx.received.map((r) => r.headers["x-webhook-delivery"])).toEqual([
      rx.received[0]?.headers["x-webhook-delivery"],
      rx.received[0]?.headers["x-webhook-delivery"],
    ]);
  });

  test("redirects are not followed", async () => {
    const { db } = get();
    const target = serve();
    const rx = serve(() => new Response(null, { status: 302, headers: { location: target.url } }));
    await addReceiver(db, { url: rx.url, secret: "s" });
    await importRecords(db, [nd([UNI, scan("x1", 50)])]);
    expect((await runDeliveryPass(db, { allowPrivate: true })).retrying).toBe(1);
    expect(target.received).toHaveLength(0);
    const [d] = await listDeliveries(db);
    expect(d?.last_error).toBe(`redirect to ${target.url} not followed`);
  });

  test("a receiver on a private address is refused and never receives anything", async () => {
    const { db } = get();
    const rx = serve();
    await addReceiver(db, { url: rx.url, secret: "s" });
    await addReceiver(db, { url: rx.url.replace("127.0.0.1", "localhost"), secret: "s" });
    await importRecords(db, [nd([UNI, scan("f1", 50)])]);
    const summary = await runDeliveryPass(db);
    expect(summary.failed).toBe(2);
    expect(rx.received).toHaveLength(0);
    for (const d of await listDeliveries(db)) {
      expect(d.status).toBe("failed");
      expect(d.last_error).toMatch(/^refused: .* resolves to .*(127\.0\.0\.1|::1)/);
    }
  });

  test("a slow receiver does not hold up the others", async () => {
    const { db } = get();
    const held = gate();
    const slow = serve(async () => {
      await held.wait;
      return new Response("late");
    });
    const fast = serve();
    await addReceiver(db, { url: slow.url, secret: "s" });
    await addReceiver(db, { url: fast.url, secret: "f" });
    await importRecords(db, [nd([UNI, ...Array.from({ length: 4 }, (_, i) => scan(`c${i}`, 50))])]);
    let settled = false;
    const pass = runDeliveryPass(db, {
      allowPrivate: true,
      concurrency: 4,
      perReceiver: 2,
      timeoutMs: 30_000,
    });
    void pass.then(() => {
      settled = true;
    });
    // Every delivery to the fast receiver arrives while the slow one still holds its first two.
    const deadline = Date.now() + 20_000;
    while (fast.received.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(fast.received).toHaveLength(4);
    expect(slow.received.length).toBeLessThanOrEqual(2);
    expect(settled).toBe(false);
    held.open();
    const summary = await pass;
    expect(summary.delivered, JSON.stringify({ summary, deliveries: await listDeliveries(db) })).toBe(8);
  });

  test("two workers on one database send each delivery once", async () => {
    const { db } = get();
    const rx = serve(async () => {
      await Bun.sleep(20);
      return new Response("ok");
    });
    await addReceiver(db, { url: rx.url, secret: "s" });
    await importRecords(db, [nd([UNI, ...Array.from({ length: 20 }, (_, i) => scan(`w${i}`, 50))])]);
    const opts = { allowPrivate: true, perReceiver: 4 };
    const [a, b] = await Promise.all([runDeliveryPass(db, opts), runDeliveryPass(db, opts)]);
    expect((a?.delivered ?? 0) + (b?.delivered ?? 0)).toBe(20);
    expect(rx.received).toHaveLength(20);
    expect(new Set(rx.received.map((r) => r.headers["x-webhook-delivery"])).size).toBe(20);
  });
});

test("private, loopback, link-local and metadata addresses are recognised", async () => {
  for (const a of [
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fd00:ec2::254",
    "fc00::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "64:ff9b::a9fe:a9fe",
    "2001:db8::1",
  ]) {
    expect(isPrivateAddress(a), a).toBe(true);
  }
  for (const a of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
    expect(isPrivateAddress(a), a).toBe(false);
  }
  expect(await refuseReceiverUrl("http://8.8.8.8/hook")).toBeNull();
  expect(await refuseReceiverUrl("http://[::1]:8080/")).toMatch(/refused/);
  expect(await refuseReceiverUrl("ftp://example.com/")).toMatch(/only http and https/);
  const resolve = async () => ["93.184.216.34", "10.0.0.5"];
  expect(await refuseReceiverUrl("https://rebind.test/", { resolve })).toMatch(/resolves to 10\.0\.0\.5/);
  expect(await refuseReceiverUrl("https://rebind.test/", { resolve, allowPrivate: true })).toBeNull();
});
