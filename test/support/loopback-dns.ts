import dns2 from "dns2";

/** A DNS server on a loopback UDP port answering A questions from `addressOf` (NXDOMAIN for a name it does not know). */
export async function startLoopbackDns(
  addressOf: (name: string) => string | undefined,
): Promise<{ resolver: { host: string; port: number }; close(): Promise<void> }> {
  const { Packet } = dns2;
  const dns = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const q = request.questions[0];
      const address = q ? addressOf(q.name.toLowerCase()) : undefined;
      if (!q || !address) response.header.rcode = 3;
      else if (q.type === Packet.TYPE.A)
        response.answers.push({
          name: q.name,
          type: Packet.TYPE.A,
          class: Packet.CLASS.IN,
          ttl: 60,
          address,
        } as never);
      // A client that gave up no longer listens: its answer is dropped, as on a network.
      Promise.resolve(send(response)).catch(() => {});
    },
  });
  await dns.listen({ udp: { port: 0, address: "127.0.0.1" } });
  return {
    resolver: { host: "127.0.0.1", port: (dns.addresses().udp as { port: number }).port },
    close: () => dns.close(),
  };
}
