import { expect, test } from "bun:test";
import dgram from "node:dgram";
import dns2 from "dns2";
import { startLoopbackDns } from "../support/loopback-dns.ts";
import { startScanWeb } from "../support/scan-web.ts";

/** A query for `name`'s A record, as a resolver sends it. */
function query(name: string, id: number): Buffer {
  const packet = new dns2.Packet();
  packet.header.id = id;
  packet.header.rd = 1;
  packet.questions.push({ name, type: dns2.Packet.TYPE.A, class: dns2.Packet.CLASS.IN } as never);
  return packet.toBuffer();
}

/** Sends `count` queries from sockets closed before their answers come, as a killed scan process leaves them. */
async function askAndLeave(port: number, name: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const socket = dgram.createSocket("udp4");
    await new Promise<void>((resolve) => socket.send(query(name, i), port, "127.0.0.1", () => resolve()));
    socket.close();
    await Bun.sleep(1);
  }
}

/** The addresses a query for `name` is answered with. */
async function answered(port: number, name: string): Promise<string[]> {
  const socket = dgram.createSocket("udp4");
  const reply = new Promise<Buffer>((resolve) => socket.once("message", (message) => resolve(message)));
  socket.send(query(name, 7), port, "127.0.0.1");
  const message = await reply;
  socket.close();
  return dns2.Packet.parse(message).answers.map((a) => (a as { address: string }).address);
}

test("the loopback DNS servers outlive clients that leave before their answers", async () => {
  const dns = await startLoopbackDns((name) => (name === "uni.example" ? "127.0.0.9" : undefined));
  const web = await startScanWeb([{ domain: "site.example" }]);
  try {
    await askAndLeave(dns.resolver.port, "uni.example", 100);
    await askAndLeave(web.resolver.port, "site.example", 100);
    await Bun.sleep(50);
    expect(await answered(dns.resolver.port, "uni.example")).toEqual(["127.0.0.9"]);
    expect(await answered(web.resolver.port, "site.example")).toEqual([
      web.addresses.get("site.example") ?? "none",
    ]);
  } finally {
    await dns.close();
    await web.close();
  }
});
