import { describe, expect, test } from "bun:test";
import { verify as octokitVerify } from "@octokit/webhooks-methods";
import { signWebhookBody, verifyWebhookSignature, webhookHandler } from "../../lib/webhooks/receiver.ts";

const SECRET = "It's a Secret to Everybody";
const BODY = "Hello, World!";
const VECTOR = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";

describe("webhook signatures", () => {
  test("the published test vector holds", async () => {
    expect(await signWebhookBody(SECRET, BODY)).toBe(VECTOR);
    expect(await signWebhookBody(SECRET, new TextEncoder().encode(BODY))).toBe(VECTOR);
    expect(await verifyWebhookSignature(SECRET, BODY, VECTOR)).toBe(true);
    expect(await octokitVerify(SECRET, BODY, VECTOR)).toBe(true);
  });

  test("verify refuses wrong secrets, bodies, prefixes and malformed headers", async () => {
    expect(await verifyWebhookSignature("other", BODY, VECTOR)).toBe(false);
    expect(await verifyWebhookSignature(SECRET, `${BODY} `, VECTOR)).toBe(false);
    expect(await verifyWebhookSignature(SECRET, BODY, VECTOR.replace("sha256=", "sha1="))).toBe(false);
    expect(await verifyWebhookSignature(SECRET, BODY, VECTOR.slice(0, -1))).toBe(false);
    expect(await verifyWebhookSignature(SECRET, BODY, `${VECTOR.slice(0, -1)}f`)).toBe(false);
    expect(await verifyWebhookSignature(SECRET, BODY, null)).toBe(false);
    expect(await verifyWebhookSignature(SECRET, BODY, "")).toBe(false);
    expect(
      await verifyWebhookSignature(SECRET, BODY, VECTOR.toUpperCase().replace("SHA256=", "sha256=")),
    ).toBe(true);
  });

  test("the handler answers 403 on a bad signature and passes the parsed event otherwise", async () => {
    const seen: unknown[] = [];
    const handle = webhookHandler({
      secret: SECRET,
      onEvent: (event, ctx) => {
        seen.push([event, ctx.deliveryId]);
      },
    });
    const body = JSON.stringify({
      event: "scan.completed",
      timestamp: "2026-03-01T12:00:00+00:00",
      data: {},
    });
    const post = (signature: string | null, text = body) =>
      handle(
        new Request("http://receiver.test/hook", {
          method: "POST",
          body: text,
          headers: {
            "content-type": "application/json",
            "x-webhook-delivery": "d-1",
            ...(signature ? { "x-webhook-signature": signature } : {}),
          },
        }),
      );
    expect((await post(null)).status).toBe(403);
    expect((await post("sha256=00")).status).toBe(403);
    expect((await post(await signWebhookBody("wrong", body))).status).toBe(403);
    expect(seen).toHaveLength(0);
    const ok = await post(await signWebhookBody(SECRET, body));
    expect(ok.status).toBe(204);
    expect(seen).toEqual([[JSON.parse(body), "d-1"]]);
    expect((await post(await signWebhookBody(SECRET, "not json"), "not json")).status).toBe(400);
    expect((await handle(new Request("http://receiver.test/hook"))).status).toBe(405);
    const failing = webhookHandler({
      secret: SECRET,
      onEvent: () => {
        throw new Error("boom");
      },
    });
    const r = await failing(
      new Request("http://x/", {
        method: "POST",
        body,
        headers: { "x-webhook-signature": await signWebhookBody(SECRET, body) },
      }),
    );
    expect(r.status).toBe(500);
  });

  test("receiver.ts imports nothing (Web APIs only)", async () => {
    const text = await Bun.file(new URL("../../lib/webhooks/receiver.ts", import.meta.url)).text();
    expect(text).not.toMatch(/^\s*import\s/m);
  });
});
