import dns2 from "dns2";

/**
 * A client that asked and went away before its answer (a process killed mid-scan) makes the server's next receive
 * fail with ECONNREFUSED, the ICMP answer to that reply; dns2 passes it on as an `error` event, which unheard is
 * thrown into the test's process. Such errors are dropped, as a network drops the answer; any other is thrown.
 */
export function dropGoneClients(server: ReturnType<typeof dns2.createServer>): void {
  server.on("error", (error: Error & { code?: string }) => {
    if (error.code !== "ECONNREFUSED") throw error;
  });
}

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
  dropGoneClients(dns);
  await dns.listen({ udp: { port: 0, address: "127.0.0.1" } });
  return {
    resolver: { host: "127.0.0.1", port: (dns.addresses().udp as { port: number }).port },
    close: () => dns.close(),
  };
}
